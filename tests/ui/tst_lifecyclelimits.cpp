// A lizard-local that lets one sandbox run (--max-running 1): what the app shows at the limit.
// The create dialog and the fork dialog say the limit, how many run and when to retry, and
// keep what was typed.
#include "models/sandboxtablemodel.h"
#include "support/apiwait.h"
#include "support/livewindow.h"
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
    QString m_sandboxId;
    lizard::test::LiveWindow m_live;

    template <class T> T* openDialog(QAction* action)
    {
        action->trigger();
        T* found = nullptr;
        for (int i = 0; i < 200 && found == nullptr; ++i) {
            for (T* d : m_live.window()->findChildren<T*>())
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
        lizard::test::LiveWindow::Options options;
        options.serverArgs = {"--max-running", "1"};
        const QString failed = m_live.start(options);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QString why;
        m_sandboxId = m_live.createSandbox(600000, &why);
        LIZ_REQUIRE_SANDBOX(m_sandboxId, why);
        QTRY_VERIFY_WITH_TIMEOUT(m_live.window()->sandboxModel()->rowOf(m_sandboxId) >= 0, 10000);
        m_live.window()->sandboxPanel()->selectSandbox(m_sandboxId);
    }

    void cleanupTestCase() { m_live.stop(); }

    void createAtTheLimitSaysSo()
    {
        auto* dialog =
            openDialog<ui::CreateSandboxDialog>(m_live.window()->sandboxPanel()->newAction());
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
        QTRY_VERIFY(m_live.window()->sandboxPanel()->forkAction()->isEnabled());
        auto* dialog = openDialog<ui::ForkDialog>(m_live.window()->sandboxPanel()->forkAction());
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
        QTRY_VERIFY(m_live.window()->banner()->isVisible() &&
                    m_live.window()->banner()->kind() == ui::BannerWidget::Kind::Error);
        QVERIFY2(m_live.window()->banner()->text().contains("2 of 2 copies"),
                 qPrintable(m_live.window()->banner()->text()));
        QCOMPARE(m_live.window()->sandboxModel()->rowCount(), 1);
        dialog->reject();
    }
};

QTEST_MAIN(TestLifecycleLimits)
#include "tst_lifecyclelimits.moc"
