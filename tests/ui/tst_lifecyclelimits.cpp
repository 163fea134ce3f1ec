// A lizard-local that lets one sandbox run (--max-running 1): what the app shows at the limit.
// The create dialog and the fork dialog say the limit, how many run and when to retry, and
// keep what was typed.
#include "models/sandboxtablemodel.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/sandboxpolicy.h"
#include "ui/bannerwidget.h"
#include "ui/createsandboxdialog.h"
#include "ui/forkdialog.h"
#include "ui/mainwindow.h"
#include "ui/projectpanel.h"
#include "ui/sandboxpanel.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

using namespace lizard;

class TestLifecycleLimits : public QObject
{
    Q_OBJECT
private:
    test::LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    std::unique_ptr<ui::MainWindow> m_window;
    QString m_sandboxId;

    template <class T> T* openDialog(QAction* action)
    {
        action->trigger();
        T* found = nullptr;
        for (int i = 0; i < 200 && found == nullptr; ++i) {
            for (T* d : m_window->findChildren<T*>())
                if (d->isVisible())
                    found = d;
            if (found == nullptr)
                QTest::qWait(20);
        }
        return found;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start({"--max-running", "1"}), qPrintable(m_server.errorString()));
        m_api = std::make_unique<client::LizardApi>(
            client::Endpoint{m_server.url(), m_server.apiKey()});
        m_window = std::make_unique<ui::MainWindow>();
        m_window->setBackend(m_api.get(), "Local — " + m_server.url(), {});
        m_window->show();
        QTRY_COMPARE_WITH_TIMEOUT(m_window->projectPanel()->currentProjectName(),
                                  QString("default"), 10000);
        QString why;
        m_sandboxId =
            test::startSandbox(*m_api, m_window->projectPanel()->currentProjectId(), 600000, &why);
        LIZ_REQUIRE_SANDBOX(m_sandboxId, why);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(m_sandboxId) >= 0, 10000);
        m_window->sandboxPanel()->selectSandbox(m_sandboxId);
    }

    void cleanupTestCase()
    {
        m_window.reset();
        if (!m_sandboxId.isEmpty())
            test::killSandbox(*m_api, m_sandboxId);
    }

    void createAtTheLimitSaysSo()
    {
        auto* dialog = openDialog<ui::CreateSandboxDialog>(m_window->sandboxPanel()->newAction());
        QVERIFY(dialog);
        dialog->lifetimeBox()->setValue(7);
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->errorText().isEmpty(), 30000);
        const QString text = dialog->errorText();
        QVERIFY2(text.contains("429") && text.contains("limit 1") && text.contains("1 running") &&
                     text.contains("retry in 5 s"),
                 qPrintable(text));
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->lifetimeBox()->value(), 7); // nothing typed is lost
        dialog->reject();
    }

    void forkAtTheLimitSaysSo()
    {
        QTRY_VERIFY(m_window->sandboxPanel()->forkAction()->isEnabled());
        auto* dialog = openDialog<ui::ForkDialog>(m_window->sandboxPanel()->forkAction());
        QVERIFY(dialog);
        dialog->countBox()->setValue(2);
        QTest::mouseClick(dialog->buttons()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->errorText().isEmpty(), 60000);
        const QString text = dialog->errorText();
        QVERIFY2(text.contains("limit 1") && text.contains("1 running") &&
                     text.contains("retry in 5 s"),
                 qPrintable(text));
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->countBox()->value(), 2);
        // The banner says how many copies failed, and the source is untouched.
        QTRY_VERIFY(m_window->banner()->isVisible() &&
                    m_window->banner()->kind() == ui::BannerWidget::Kind::Error);
        QVERIFY2(m_window->banner()->text().contains("2 of 2 copies"),
                 qPrintable(m_window->banner()->text()));
        QCOMPARE(m_window->sandboxModel()->rowCount(), 1);
        dialog->reject();
    }
};

QTEST_MAIN(TestLifecycleLimits)
#include "tst_lifecyclelimits.moc"
