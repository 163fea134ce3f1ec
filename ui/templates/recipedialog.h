#pragma once
// New template… / Edit and rebuild…: the recipe in an editor that colours it and checks it as
// one types (the server's own parser: a wrong line is underlined and named), the folder its
// `files` come from, and Build, with the build's log as it runs and how it ended.

#include "client/templatetypes.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace lizard::client {
class LizardApi;
}
namespace lizard::models {
class TemplateBuildSession;
}

namespace lizard::ui {

class RecipeHighlighter;

class RecipeDialog : public QDialog
{
    Q_OBJECT
public:
    // `name` empty: a new template (its name is asked); else the template's recipe is `recipe`.
    RecipeDialog(client::LizardApi* api, const QString& name, const QString& recipe,
                 QWidget* parent = nullptr);

    static QString sampleRecipe();

    // Shows the log of a build that runs or ran (Build log…).
    void followBuild(const QString& buildId);

    QLineEdit* nameEdit() const { return m_name; }
    QLineEdit* folderEdit() const { return m_folder; }
    QPlainTextEdit* editor() const { return m_editor; }
    QPlainTextEdit* log() const { return m_log; }
    QPushButton* buildButton() const { return m_build; }
    QString checkText() const;
    QString statusText() const;
    int errorLine() const;

    // Reads a recipe file: its text in the editor, its folder as the files' folder.
    bool openRecipeFile(const QString& path);

signals:
    void buildStarted(const QString& name);
    void buildEnded(const lizard::client::TemplateBuild& build);

private:
    void startBuild();
    void onChecked(const client::RecipeCheck& check);
    void onCheckFailed(int line, const QString& message);
    void onEnded(const client::TemplateBuild& build);
    void setStatus(const QString& text, bool error);
    void updateBuildButton();

    models::TemplateBuildSession* m_session;
    QLineEdit* m_name;
    QLineEdit* m_folder;
    QPlainTextEdit* m_editor;
    RecipeHighlighter* m_highlighter;
    QLabel* m_check;
    QPlainTextEdit* m_log;
    QLabel* m_status;
    QPushButton* m_build;
    QTimer* m_checkTimer;
    bool m_recipeOk = false;
    QString m_checkedText; // the text the last check was asked for
};

} // namespace lizard::ui
