// The app's look without a server: every action of the main window's menus and toolbars (and
// of a notebook's toolbar) has an icon of the app's set; the set, the palette and the widgets
// that paint colours of their own follow the colour scheme (the desktop's, or Preferences').
#include "../notebook/scriptedrunner.h"
#include "app/desktopapp.h"
#include "app/keystore.h"
#include "app/settingsstore.h"
#include "support/screenshot.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/notebookpage.h"
#include "ui/preferencesdialog.h"
#include "ui/theme/apptheme.h"
#include "ui/theme/icontheme.h"
#include "ui/theme/themepalette.h"
#include "ui/workbench.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolBar>
#include <QWidgetAction>
#include <QtTest>

using namespace lizard;
using ui::AppTheme;
using ui::IconTheme;

namespace {

// Every action a user can click in a menu (submenus too) or a toolbar under root.
QList<QAction*> clickableActions(QWidget* root, QStringList* where)
{
    QList<QAction*> found;
    const auto add = [&](QAction* a, const QString& place) {
        if (a->isSeparator() || qobject_cast<QWidgetAction*>(a) != nullptr)
            return;
        found << a;
        where->append(place + QStringLiteral(" ▸ ") + a->text());
    };
    std::function<void(QMenu*, const QString&)> walkMenu = [&](QMenu* menu, const QString& path) {
        for (QAction* a : menu->actions()) {
            add(a, path);
            if (a->menu())
                walkMenu(a->menu(), path + QStringLiteral(" ▸ ") + a->text());
        }
    };
    if (auto* window = qobject_cast<QMainWindow*>(root))
        for (QAction* a : window->menuBar()->actions())
            walkMenu(a->menu(), a->text());
    for (QToolBar* bar : root->findChildren<QToolBar*>())
        for (QAction* a : bar->actions())
            add(a, QStringLiteral("toolbar of ") + bar->parentWidget()->metaObject()->className());
    return found;
}

// The colour of an icon's lines (its greyest opaque pixel).
QColor strokeColour(const QIcon& icon)
{
    const QImage image = icon.pixmap(QSize(32, 32)).toImage();
    QColor best;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.alpha() == 255 && (!best.isValid() || c.saturation() < 40))
                best = c;
        }
    return best;
}

} // namespace

class TestAppearance : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void everyActionHasAnIconOfTheSet();
    void iconsFollowTheScheme();
    void paletteFollowsTheDesktopUnlessChosen();
    void preferencesChooseTheScheme();

private:
    QTemporaryDir m_tmp;
    std::unique_ptr<app::DesktopApp> m_app;
    ui::notebook::NotebookPage* m_page = nullptr;
};

void TestAppearance::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    auto* keys = new app::KeyStore(m_tmp.filePath("keys.json"), false, this);
    // The window as main() builds it, not connected: its menus and toolbars are all there.
    m_app = std::make_unique<app::DesktopApp>(
        std::make_unique<app::SettingsStore>(m_tmp.filePath("settings.ini")), keys,
        m_tmp.filePath("data"));
    // And a notebook's toolbar, on a scripted runner.
    m_page = new ui::notebook::NotebookPage("sb-test", new notebook::test::ScriptedRunner, nullptr);
    m_app->window()->workbench()->openDocument(m_page);
    m_app->window()->resize(1200, 760);
    m_app->window()->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_app->window()));
}

void TestAppearance::cleanupTestCase()
{
    AppTheme::instance()->setChoice(AppTheme::Choice::System);
    m_app.reset();
}

void TestAppearance::everyActionHasAnIconOfTheSet()
{
    QStringList where;
    const QList<QAction*> actions = clickableActions(m_app->window(), &where);
    QVERIFY2(actions.size() > 60, qPrintable(QString::number(actions.size())));
    QStringList missing;
    for (int i = 0; i < actions.size(); ++i) {
        const QIcon icon = actions[i]->icon();
        if (icon.isNull() || !IconTheme::ships(icon.name()) || icon.pixmap(QSize(16, 16)).isNull())
            missing << where[i] + QStringLiteral(" (") + icon.name() + QLatin1Char(')');
    }
    QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
    test::saveScreenshot(m_app->window(), QStringLiteral("appearance-light"));
}

void TestAppearance::iconsFollowTheScheme()
{
    const QIcon copy = IconTheme::icon(QStringLiteral("edit-copy"));
    AppTheme::instance()->setChoice(AppTheme::Choice::Light);
    QCOMPARE(QIcon::themeName(), QStringLiteral("lizard"));
    const QColor light = strokeColour(copy);
    // A notebook cell's editor takes the scheme's colours too.
    auto* editor = m_page->findChild<ui::notebook::CellEditor*>();
    QVERIFY(editor);
    QVERIFY2(editor->palette().color(QPalette::Base).lightness() > 200,
             qPrintable(editor->palette().color(QPalette::Base).name()));
    AppTheme::instance()->setChoice(AppTheme::Choice::Dark);
    QCOMPARE(QIcon::themeName(), QStringLiteral("lizard-dark"));
    QTRY_VERIFY(ui::isDarkPalette(m_app->window()->palette()));
    // The same QIcon, drawn again: light strokes now.
    const QColor dark = strokeColour(copy);
    QVERIFY2(light.lightness() < 100 && dark.lightness() > 180,
             qPrintable(light.name() + " " + dark.name()));
    QVERIFY2(editor->palette().color(QPalette::Base).lightness() < 80,
             qPrintable(editor->palette().color(QPalette::Base).name()));
    test::saveScreenshot(m_app->window(), QStringLiteral("appearance-dark"));
    AppTheme::instance()->setChoice(AppTheme::Choice::System);
}

void TestAppearance::paletteFollowsTheDesktopUnlessChosen()
{
    AppTheme* theme = AppTheme::instance();
    QSignalSpy changed(theme, &AppTheme::changed);
    theme->setChoice(AppTheme::Choice::System);
    theme->setSystemScheme(AppTheme::Scheme::Dark);
    QVERIFY(theme->isDark());
    QVERIFY(ui::isDarkPalette(QApplication::palette()));
    // Widgets get the application's palette from the event loop.
    QTRY_VERIFY(ui::isDarkPalette(m_app->window()->palette()));
    theme->setChoice(AppTheme::Choice::Light); // Preferences win over the desktop
    QVERIFY(!ui::isDarkPalette(QApplication::palette()));
    theme->setChoice(AppTheme::Choice::System);
    QVERIFY(ui::isDarkPalette(QApplication::palette()));
    theme->setSystemScheme(AppTheme::Scheme::Light);
    QVERIFY(!ui::isDarkPalette(QApplication::palette()));
    QCOMPARE(changed.size(), 4);
}

void TestAppearance::preferencesChooseTheScheme()
{
    m_app->window()->preferencesAction()->trigger();
    ui::PreferencesDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = m_app->window()->findChild<ui::PreferencesDialog*>()) &&
                dialog->isVisible());
    QCOMPARE(dialog->colorSchemeBox()->currentText(), QStringLiteral("Follow the desktop"));
    dialog->colorSchemeBox()->setCurrentIndex(dialog->colorSchemeBox()->findText("Dark"));
    dialog->buttons()->button(QDialogButtonBox::Ok)->click();
    QVERIFY(AppTheme::instance()->isDark());
    QTRY_VERIFY(ui::isDarkPalette(m_app->window()->palette()));
    // Kept for the next start, as main() reads it.
    QCOMPARE(QSettings(m_tmp.filePath("settings.ini"), QSettings::IniFormat)
                 .value("appearance/colorScheme")
                 .toString(),
             QStringLiteral("dark"));
    AppTheme::instance()->setChoice(AppTheme::Choice::System);
}

QTEST_MAIN(TestAppearance)
#include "tst_appearance.moc"
