#pragma once
// Help ▸ About lizard-desktop: the versions of the app, of the server it is connected to (as
// the server names itself in its answers' Server header), of the Qt it runs on, and of the code
// runner it sends into sandboxes.

#include <QDialog>
#include <QPointer>

class QLabel;

namespace lizard::client {
class LizardApi;
}

namespace lizard::ui {

class AboutDialog : public QDialog
{
    Q_OBJECT
public:
    // api may be null (not connected); it is asked for the server's version once.
    explicit AboutDialog(client::LizardApi* api, QWidget* parent = nullptr);

    QString appVersion() const;
    QString serverText() const;
    QString qtVersion() const;
    QString runnerVersion() const;
    // Whether the server's answer (or failure) has arrived.
    bool serverAnswered() const { return m_answered; }

signals:
    void serverAnswerArrived();

private:
    void askServer(client::LizardApi* api);

    QLabel* m_app;
    QLabel* m_server;
    QLabel* m_qt;
    QLabel* m_runner;
    bool m_answered = false;
};

} // namespace lizard::ui
