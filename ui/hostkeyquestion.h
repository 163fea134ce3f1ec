#pragma once
// The question ssh asks in a terminal on the first connection to a host, as a dialog: its key's
// fingerprints, to compare with what the host's owner reads there (`ssh-keygen -lf
// /etc/ssh/ssh_host_ed25519_key.pub`). Cancel is the default.

#include <QStringList>
#include <functional>

class QMessageBox;
class QWidget;

namespace lizard::ui {

// Shows the question (window-modal, object name "hostKeyQuestion") and returns at once;
// `answer(true)` only for "Trust and connect".
QMessageBox* askToTrustHostKey(QWidget* parent, const QString& host,
                               const QStringList& fingerprints, std::function<void(bool)> answer);

} // namespace lizard::ui
