// What lizard-local's host commands and agent tools inherit: their stdio and nothing else. Asio
// opens lizard-local's listening and accepted sockets without close-on-exec, so a child given
// everything would hold the API's port; one that outlives a killed server (a host command
// still running, an agent tool) keeps that port from the server started next. The test holds
// an inheritable socket, as lizard-local does, and each child checks from inside that it did
// not get it, beside the control that it did get its stdout.
#include "runtime/agenttool.h"
#include "runtime/hostcommand.h"

#include <QtTest>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace lizard::runtime;

class TestSpawnedFds : public QObject
{
    Q_OBJECT

    int m_socket = -1;

    // A shell line that exits 0 only when the socket is not open in it and its stdout is.
    std::string probe() const
    {
        return "test ! -e /proc/self/fd/" + std::to_string(m_socket) +
               " && test -e /proc/self/fd/1";
    }

private slots:
    void init()
    {
        m_socket = ::socket(AF_INET, SOCK_STREAM, 0); // inheritable, like Asio's
        QVERIFY(m_socket > 2);
    }
    void cleanup() { ::close(m_socket); }

    void theProbeSeesAnInheritedSocket()
    {
        // The control: a child that does inherit the socket fails the probe.
        const pid_t child = ::fork();
        if (child == 0) {
            ::execl("/bin/sh", "sh", "-c", probe().c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        QVERIFY(child > 0);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 1);
    }

    void aHostCommandGetsOnlyItsStdio()
    {
        const auto s = runHostCommand({"/bin/sh", "-c", probe()}, 10000, "TEST");
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
    }

    void anAgentToolGetsOnlyItsStdio()
    {
        // The prefix runs the probe in place of the agent (sh -c PROBE sh AGENT MODE). Like
        // the agent, it reads its configuration first: a tool gone before spawnAgentTool has
        // written it would end this process by SIGPIPE (lizard-local ignores that signal).
        auto spawned = spawnAgentTool("agent", "mode", nlohmann::json::object(),
                                      {"/bin/sh", "-c", "cat >/dev/null; " + probe(), "sh"});
        QVERIFY2(spawned.ok(), spawned.ok() ? "" : spawned.error().message.c_str());
        int status = 0;
        QCOMPARE(::waitpid(spawned->pid, &status, 0), spawned->pid);
        ::close(spawned->out);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
    }
};

QTEST_GUILESS_MAIN(TestSpawnedFds)
#include "tst_spawnedfds.moc"
