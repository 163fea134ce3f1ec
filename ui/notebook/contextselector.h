#pragma once
// The notebook toolbar's context selector: the default contexts (python, javascript, bash), every
// context of the sandbox (also those an agent made with an SDK), and "New … context" entries.

#include "notebook/notebookkernel.h"

#include <QComboBox>
#include <QPointer>

namespace lizard::ui::notebook {

class ContextSelector : public QComboBox
{
    Q_OBJECT
public:
    explicit ContextSelector(lizard::notebook::NotebookKernel* kernel, QWidget* parent = nullptr);

    void refresh(); // asks the kernel for the sandbox's contexts
    QList<lizard::notebook::ContextChoice>
    choices() const; // what the list holds now (without "New …" entries)
    // Picks an entry as if the user had: switches context, or creates one for "new:<language>".
    void choose(int index);

    static QString labelFor(const lizard::notebook::ContextChoice& context);

signals:
    void refreshed();
    void errorOccurred(const QString& message);

protected:
    void showPopup() override;

private:
    void fill(const QList<lizard::notebook::ContextChoice>& listed);
    void selectCurrent();

    QPointer<lizard::notebook::NotebookKernel> m_kernel;
    bool m_filling = false;
};

} // namespace lizard::ui::notebook
