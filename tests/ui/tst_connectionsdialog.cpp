// ConnectionsDialog: adding a cloud connection validates URL and key; Local cannot be removed;
// a key that would travel over plain http:// to another host needs the user's explicit yes.
#include "ui/connectionsdialog.h"
#include "ui/sshhostform.h"

#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using lizard::models::ConnectionProfile;
using lizard::ui::ConnectionsDialog;

namespace {

// Watches for the dialog's warning box while a modal call runs; answers it like a user.
class WarningAnswerer
{
public:
    explicit WarningAnswerer(bool send)
    {
        QObject::connect(&m_timer, &QTimer::timeout, [this, send] {
            for (QWidget* w : QApplication::topLevelWidgets()) {
                auto* box = qobject_cast<QMessageBox*>(w);
                if (!box || !box->isVisible() || box->objectName() != "keyInClearWarning")
                    continue;
                ++shown;
                text = box->text() + "\n" + box->informativeText();
                defaultIsCancel = box->defaultButton() == box->button(QMessageBox::Cancel);
                for (QAbstractButton* b : box->buttons())
                    if ((send && box->buttonRole(b) == QMessageBox::DestructiveRole) ||
                        (!send && b == box->button(QMessageBox::Cancel)))
                        return b->click();
            }
        });
        m_timer.start(20);
    }
    int shown = 0;
    QString text;
    bool defaultIsCancel = false;

private:
    QTimer m_timer;
};

} // namespace

class TestConnectionsDialog : public QObject
{
    Q_OBJECT
private slots:
    void addCloud_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("ok");
        QTest::newRow("default url") << "https://lizard.build"
                                     << "liz_abc" << true;
        QTest::newRow("trailing slash") << "https://lizard.build/"
                                        << "liz_abc" << true;
        QTest::newRow("http local") << "http://127.0.0.1:7411"
                                    << "liz_abc" << true;
        QTest::newRow("no key") << "https://lizard.build"
                                << "  " << false;
        QTest::newRow("no scheme") << "lizard.build"
                                   << "liz_abc" << false;
        QTest::newRow("ftp") << "ftp://lizard.build"
                             << "liz_abc" << false;
        QTest::newRow("garbage") << "http://"
                                 << "liz_abc" << false;
    }
    void addCloud()
    {
        QFETCH(QString, url);
        QFETCH(QString, key);
        QFETCH(bool, ok);
        ConnectionsDialog dialog({ConnectionProfile::local()}, "local", "keys go to a file");
        dialog.nameEdit()->setText("Work");
        dialog.urlEdit()->setText(url);
        dialog.keyEdit()->setText(key);
        QString error;
        QCOMPARE(dialog.addCloudFromForm(&error), ok);
        if (!ok) {
            QVERIFY(!error.isEmpty());
            QCOMPARE(dialog.profiles().size(), 1);
            QVERIFY(dialog.newKeys().isEmpty());
            return;
        }
        QCOMPARE(dialog.profiles().size(), 2);
        const ConnectionProfile added = dialog.profiles().at(1);
        QCOMPARE(added.kind, ConnectionProfile::Kind::Cloud);
        QCOMPARE(added.name, QString("Work"));
        QVERIFY(!added.url.endsWith('/'));
        QCOMPARE(dialog.newKeys().value(added.id), key.trimmed());
        QCOMPARE(dialog.activeId(), added.id);       // the new one is selected
        QVERIFY(dialog.keyEdit()->text().isEmpty()); // the secret does not linger in the form
    }

    // http:// to a host that is not this computer: a warning naming the risk; declined, nothing
    // is added and no key is kept.
    void plainHttpKeyNeedsConfirmation()
    {
        ConnectionsDialog dialog({ConnectionProfile::local()}, "local", "");
        dialog.urlEdit()->setText("http://example.test");
        dialog.keyEdit()->setText("liz_secret");
        QString error;
        {
            WarningAnswerer no(false);
            QVERIFY(!dialog.addCloudFromForm(&error));
            QCOMPARE(no.shown, 1);
            QVERIFY2(no.text.contains("example.test") && no.text.contains("unencrypted") &&
                         no.text.contains("https://"),
                     qPrintable(no.text));
            QVERIFY2(no.defaultIsCancel, "Enter must not send the key");
        }
        QVERIFY(error.contains("unencrypted"));
        QCOMPARE(dialog.profiles().size(), 1);
        QVERIFY(dialog.newKeys().isEmpty());
        // Confirmed: added, remembered as confirmed.
        dialog.keyEdit()->setText("liz_secret");
        WarningAnswerer yes(true);
        QVERIFY(dialog.addCloudFromForm(&error));
        QCOMPARE(yes.shown, 1);
        QCOMPARE(dialog.profiles().size(), 2);
        QVERIFY(dialog.profiles().at(1).keyInClearConfirmed);
        QCOMPARE(dialog.newKeys().value(dialog.profiles().at(1).id), QString("liz_secret"));
    }

    // Control: https and loopback http pass silently.
    void safeUrlsPassSilently_data()
    {
        QTest::addColumn<QString>("url");
        QTest::newRow("https") << "https://lizard.build";
        QTest::newRow("loopback v4") << "http://127.0.0.1:7411";
        QTest::newRow("loopback 127/8") << "http://127.8.9.10:7411";
        QTest::newRow("localhost") << "http://localhost:7411";
        QTest::newRow("loopback v6") << "http://[::1]:7411";
    }
    void safeUrlsPassSilently()
    {
        QFETCH(QString, url);
        ConnectionsDialog dialog({ConnectionProfile::local()}, "local", "");
        dialog.urlEdit()->setText(url);
        dialog.keyEdit()->setText("liz_k");
        WarningAnswerer watcher(false);
        QString error;
        QVERIFY2(dialog.addCloudFromForm(&error), qPrintable(error));
        QTest::qWait(60); // a late box would show up here
        QCOMPARE(watcher.shown, 0);
        QVERIFY(!dialog.profiles().at(1).keyInClearConfirmed);
    }

    // Switching to an unconfirmed plain-http connection (from an older version's settings)
    // asks too; declined, the dialog stays open and nothing switches.
    void switchingToPlainHttpAsks()
    {
        ConnectionProfile old{"cloud-1", "Old", ConnectionProfile::Kind::Cloud,
                              "http://example.test", false};
        ConnectionsDialog dialog({ConnectionProfile::local(), old}, "cloud-1", "");
        dialog.show();
        {
            WarningAnswerer no(false);
            dialog.accept();
            QCOMPARE(no.shown, 1);
        }
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        WarningAnswerer yes(true);
        dialog.accept();
        QCOMPARE(yes.shown, 1);
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QVERIFY(dialog.profiles().at(1).keyInClearConfirmed);
    }

    void localCannotBeRemoved()
    {
        ConnectionProfile cloud{"cloud-1", "Cloud", ConnectionProfile::Kind::Cloud,
                                "https://lizard.build", false};
        ConnectionsDialog dialog({ConnectionProfile::local(), cloud}, "local", "");
        QCOMPARE(dialog.list()->count(), 2);
        QCOMPARE(dialog.activeId(), QString("local"));
        dialog.list()->setCurrentRow(1);
        QCOMPARE(dialog.activeId(), QString("cloud-1"));
        const auto buttons = dialog.findChildren<QPushButton*>();
        QPushButton* remove = nullptr;
        for (auto* b : buttons)
            if (b->text() == "Remove")
                remove = b;
        QVERIFY(remove);
        remove->click();
        QCOMPARE(dialog.removedIds(), QStringList{"cloud-1"});
        QCOMPARE(dialog.list()->count(), 1);
        remove->click(); // Local is selected now
        QCOMPARE(dialog.list()->count(), 1);
        QCOMPARE(dialog.profiles().size(), 1);
    }

    // An existing cloud connection gets its CA certificate changed or cleared; a file without
    // a PEM certificate is refused and changes nothing; Local has none.
    void caFileOfAnExistingConnection()
    {
        QTemporaryDir dir;
        QFile pem(dir.filePath("corp-ca.pem"));
        QVERIFY(pem.open(QIODevice::WriteOnly));
        pem.write("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        pem.close();
        QFile notPem(dir.filePath("key.der"));
        QVERIFY(notPem.open(QIODevice::WriteOnly));
        notPem.write("\x30\x82\x01\x0a");
        notPem.close();

        ConnectionProfile cloud{"cloud-1", "Cloud", ConnectionProfile::Kind::Cloud,
                                "https://lizard.build", false};
        ConnectionsDialog dialog({ConnectionProfile::local(), cloud}, "local", "");
        QVERIFY(!dialog.selectedCaButton()->isEnabled()); // Local is selected
        QString error;
        QVERIFY(!dialog.setSelectedCaFile(pem.fileName(), &error));

        dialog.list()->setCurrentRow(1);
        QVERIFY(dialog.selectedCaButton()->isEnabled());
        QVERIFY(!dialog.clearCaButton()->isEnabled());
        QVERIFY(!dialog.setSelectedCaFile(notPem.fileName(), &error));
        QVERIFY2(error.contains("no PEM certificate"), qPrintable(error));
        QCOMPARE(dialog.profiles().at(1).caFile, QString());

        QVERIFY2(dialog.setSelectedCaFile(pem.fileName(), &error), qPrintable(error));
        QCOMPARE(dialog.profiles().at(1).caFile, pem.fileName());
        QCOMPARE(dialog.activeId(), QString("cloud-1")); // still selected
        QVERIFY(dialog.list()->item(1)->text().contains("(CA: corp-ca.pem)"));
        QVERIFY(dialog.clearCaButton()->isEnabled());

        dialog.clearCaButton()->click();
        QCOMPARE(dialog.profiles().at(1).caFile, QString());
        QVERIFY(!dialog.list()->item(1)->text().contains("CA:"));
        QVERIFY(!dialog.clearCaButton()->isEnabled());
    }

    // An SSH host: user@host, a port, an identity file; what ssh would read as an option, or a
    // file that cannot be read, is refused with the reason.
    void addSshHost_data()
    {
        QTest::addColumn<QString>("destination");
        QTest::addColumn<QString>("identity");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("user@host") << "ana@big.lab"
                                   << ""
                                   << "";
        QTest::newRow("config host") << "workstation"
                                     << ""
                                     << "";
        QTest::newRow("empty") << ""
                               << ""
                               << "must look like user@host";
        QTest::newRow("an option") << "-oProxyCommand=evil"
                                   << ""
                                   << "not starting with -";
        QTest::newRow("spaces") << "ana@big lab"
                                << ""
                                << "no spaces";
        QTest::newRow("missing identity") << "ana@big.lab"
                                          << "/nonexistent/id_lab"
                                          << "cannot be read";
    }

    void addSshHost()
    {
        QFETCH(QString, destination);
        QFETCH(QString, identity);
        QFETCH(QString, refusal);
        ConnectionsDialog dialog({ConnectionProfile::local()}, "local", "note");
        dialog.sshForm()->nameEdit()->setText("Big machine");
        dialog.sshForm()->destinationEdit()->setText(destination);
        dialog.sshForm()->portBox()->setValue(2222);
        dialog.sshForm()->identityEdit()->setText(identity);
        QString error;
        const bool added = dialog.addSshFromForm(&error);
        if (!refusal.isEmpty()) {
            QVERIFY(!added);
            QVERIFY2(error.contains(refusal), qPrintable(error));
            QCOMPARE(dialog.profiles().size(), 1);
            return;
        }
        QVERIFY2(added, qPrintable(error));
        QCOMPARE(dialog.profiles().size(), 2);
        const ConnectionProfile p = dialog.profiles().at(1);
        QCOMPARE(p.kind, ConnectionProfile::Kind::Ssh);
        QCOMPARE(p.id, QString("ssh-1"));
        QCOMPARE(p.sshDestination, destination);
        QCOMPARE(p.sshPort, 2222);
        QCOMPARE(dialog.activeId(), QString("ssh-1"));
        QCOMPARE(dialog.list()->item(1)->text(), "Big machine — SSH " + destination + ":2222");
        QVERIFY(dialog.newKeys().isEmpty()); // an SSH host's key is read over SSH, never typed
        QVERIFY(dialog.sshForm()->destinationEdit()->text().isEmpty());
    }
};

QTEST_MAIN(TestConnectionsDialog)
#include "tst_connectionsdialog.moc"
