// ConnectionsDialog against a real https:// endpoint (nginx with a test CA in front of a
// lizard-local): "Test" shows the clear message for an untrusted certificate and for a
// certificate made for another host name, and succeeds once the CA file is chosen; a CA file
// that holds no certificate is refused before it is saved; the added connection keeps its CA;
// switching to a connection with a refused certificate fails with the same words.
#include "app/connectioncontroller.h"
#include "app/keystore.h"
#include "support/localserver.h"
#include "support/screenshot.h"
#include "support/tlsfront.h"
#include "ui/connectionsdialog.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using lizard::models::ConnectionProfile;
using lizard::ui::ConnectionsDialog;

namespace {
const QString kHost = QStringLiteral("lizard-tls.test");
}

class TestConnectionsTls : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        for (const char* name :
             {"https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "LIZARD_CA_BUNDLE"})
            qunsetenv(name);
        if (lizard::test::TlsFront::nginxBinary().isEmpty())
            QFAIL("nginx is not installed: `make test` installs it (scripts/install-deps.sh, "
                  "nginx-light); the TLS path cannot be tested without it");
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        QVERIFY2(m_front.start(m_server.port()), qPrintable(m_front.errorString()));
        // The client's test-only resolve hook (client/tlsconfig.h): kHost is 127.0.0.1.
        qputenv("LIZARD_TEST_RESOLVE", m_front.resolveHook());
    }
    void cleanupTestCase()
    {
        m_front.stop();
        m_server.stop();
    }

    void testShowsWhyTheCertificateIsRefused()
    {
        ConnectionsDialog dialog({ConnectionProfile::local()}, "local", "Keys are kept in a file.");
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QLabel* result = dialog.testResultLabel();
        dialog.urlEdit()->setText(QStringLiteral("https://%1:%2").arg(kHost).arg(m_front.port()));
        dialog.keyEdit()->setText(m_server.apiKey());

        // No CA file: the user learns what is wrong and where to fix it.
        QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains(QLatin1String("not trusted")), 30000);
        QVERIFY(result->isVisible());
        QCOMPARE(result->text(),
                 QStringLiteral(
                     "Connecting failed: The server's certificate is not trusted "
                     "(unable to get local issuer certificate). If your organisation uses its own "
                     "certificate authority, choose its certificate in Connections."));
        lizard::test::saveScreenshot(dialog.grab(), QStringLiteral("connections-untrusted"));

        // The organisation's CA chosen: the same endpoint answers.
        dialog.caFileEdit()->setText(m_front.caFile());
        QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QLatin1String("Connected")), 30000);

        // A certificate for another name, from the same trusted CA.
        dialog.urlEdit()->setText(
            QStringLiteral("https://%1:%2").arg(kHost).arg(m_front.otherHostPort()));
        QTest::mouseClick(dialog.testButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains(QLatin1String("another host name")),
                                 30000);
        QVERIFY2(result->text().startsWith(
                     QLatin1String("Connecting failed: The server's certificate is "
                                   "for another host name (")),
                 qPrintable(result->text()));
    }

    // Switching to the connection: the controller's failure (shown in the window's banner) says
    // why, and the profile's CA file is what makes it work.
    void usingTheConnectionSaysWhy()
    {
        QTemporaryDir dir;
        lizard::app::KeyStore keys(dir.filePath("keys"), false);
        bool stored = false;
        keys.store("cloud-1", m_server.apiKey(),
                   [&](lizard::app::KeyStore::Backend, const QString&) { stored = true; });
        QTRY_VERIFY(stored);
        lizard::app::ConnectionController controller(&keys, dir.filePath("local"));
        QSignalSpy failed(&controller, &lizard::app::ConnectionController::failed);
        QSignalSpy connected(&controller, &lizard::app::ConnectionController::connected);
        const QString url = QStringLiteral("https://%1:%2").arg(kHost).arg(m_front.port());
        ConnectionProfile profile{"cloud-1", "Work", ConnectionProfile::Kind::Cloud,
                                  url,       false,  {}};
        controller.connectTo(profile);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
        QCOMPARE(failed.first().first().toString(),
                 QStringLiteral(
                     "Connect to %1 failed: The server's certificate is not trusted (unable to get "
                     "local issuer certificate). If your organisation uses its own certificate "
                     "authority, choose its certificate in Connections.")
                     .arg(url));
        profile.caFile = m_front.caFile();
        controller.connectTo(profile);
        QTRY_COMPARE_WITH_TIMEOUT(connected.size(), 1, 30000);
        QCOMPARE(failed.size(), 1);
    }

    void caFileMustHoldACertificate()
    {
        QTemporaryDir dir;
        const QString notPem = dir.filePath("key.txt");
        QFile f(notPem);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("not a certificate\n") > 0);
        f.close();
        ConnectionsDialog dialog({ConnectionProfile::local()}, "local", "Keys are kept in a file.");
        dialog.urlEdit()->setText(QStringLiteral("https://%1:%2").arg(kHost).arg(m_front.port()));
        dialog.keyEdit()->setText(m_server.apiKey());
        dialog.caFileEdit()->setText(notPem);
        QString error;
        QVERIFY(!dialog.addCloudFromForm(&error));
        QVERIFY2(error.contains(QLatin1String("holds no PEM certificate")), qPrintable(error));
        QCOMPARE(dialog.keyEdit()->text(), m_server.apiKey()); // nothing the user typed is lost
        dialog.caFileEdit()->setText(dir.filePath("missing.pem"));
        QVERIFY(!dialog.addCloudFromForm(&error));
        QVERIFY2(error.startsWith(QLatin1String("The CA certificate file cannot be read")),
                 qPrintable(error));

        dialog.caFileEdit()->setText(m_front.caFile());
        QVERIFY2(dialog.addCloudFromForm(&error), qPrintable(error));
        QCOMPARE(dialog.profiles().size(), 2);
        QCOMPARE(dialog.profiles().last().caFile, m_front.caFile());
        QVERIFY(dialog.caFileEdit()->text().isEmpty());
    }

private:
    lizard::test::LocalServer m_server;
    lizard::test::TlsFront m_front{kHost};
};

QTEST_MAIN(TestConnectionsTls)
#include "tst_connectionstls.moc"
