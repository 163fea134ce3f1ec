// The quota file system's request handler (server/agent/quotafs/quotafs.h) without a kernel:
// FUSE requests built as the kernel writes them, over a temporary backing directory. What a
// sandbox sees through the mount is asserted here by the replies: files and directories made
// and found, writes past the bytes bound cut short and then refused with ENOSPC, new inodes
// past the inode bound refused while a whiteout (what overlayfs makes to delete a lower file)
// still fits, statfs reporting the bounds (what df shows), room given back by deletions, and
// names that could leave the backing directory refused. The daemon around it and the mount are
// tested with a real sandbox (tst_runtime, tst_sec_disk).
#include "agent/quotafs/quotafs.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/fuse.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace qfs = lizard::agent::quotafs;

namespace {

constexpr std::int64_t kQuotaBytes = 1 << 20; // 1 MiB
constexpr std::int64_t kQuotaInodes = 300;

// One reply as the kernel would read it: its errno (positive) and body.
struct QuotaFsAnswer
{
    int error = 0;
    QByteArray body;
    bool sent = true;

    template <class T> T as() const
    {
        T out{};
        std::memcpy(&out, body.constData(), std::min<std::size_t>(sizeof out, body.size()));
        return out;
    }
};

QByteArray quotaFsName(const char* name)
{
    return QByteArray(name, int(std::strlen(name)) + 1); // with its NUL
}

template <class T> QByteArray quotaFsBytes(const T& v)
{
    return QByteArray(reinterpret_cast<const char*>(&v), int(sizeof v));
}

} // namespace

class TestQuotaFs : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QByteArray m_cwd;
    std::unique_ptr<qfs::QuotaFs> m_fs;
    std::uint64_t m_unique = 0;

    QuotaFsAnswer call(std::uint32_t opcode, std::uint64_t node, const QByteArray& body = {})
    {
        fuse_in_header h{};
        h.len = std::uint32_t(sizeof h + body.size());
        h.opcode = opcode;
        h.unique = ++m_unique;
        h.nodeid = node;
        h.uid = ::geteuid();
        h.gid = ::getegid();
        h.pid = std::uint32_t(::getpid());
        const QByteArray request = quotaFsBytes(h) + body;
        qfs::FuseReply reply(qfs::kMaxWrite + 4096);
        m_fs->handle(request.constData(), std::size_t(request.size()), reply);
        QuotaFsAnswer a;
        a.sent = reply.wanted();
        a.error = reply.error();
        const char* message = reply.message();
        a.body = QByteArray(message + sizeof(fuse_out_header), int(reply.bodySize()));
        return a;
    }

    // A new regular file `name` in directory `dir`, open for writing: its node and handle.
    std::pair<std::uint64_t, std::uint64_t> create(std::uint64_t dir, const char* name, int* err)
    {
        fuse_create_in in{};
        in.flags = O_WRONLY | O_CREAT;
        in.mode = S_IFREG | 0644;
        const QuotaFsAnswer a = call(FUSE_CREATE, dir, quotaFsBytes(in) + quotaFsName(name));
        *err = a.error;
        if (a.error)
            return {0, 0};
        const auto entry = a.as<fuse_entry_out>();
        fuse_open_out open{};
        std::memcpy(&open, a.body.constData() + sizeof(fuse_entry_out), sizeof open);
        return {entry.nodeid, open.fh};
    }

    QuotaFsAnswer write(std::uint64_t node, std::uint64_t fh, std::uint64_t offset,
                        const QByteArray& data)
    {
        fuse_write_in in{};
        in.fh = fh;
        in.offset = offset;
        in.size = std::uint32_t(data.size());
        return call(FUSE_WRITE, node, quotaFsBytes(in) + data);
    }

    // The kernel lets go of a node: its open handle (if any) closed, its lookups forgotten. An
    // unlinked inode is freed only then, as a deleted file kept open keeps its blocks.
    void letGo(std::uint64_t node, std::uint64_t fh = 0)
    {
        if (fh) {
            fuse_release_in in{};
            in.fh = fh;
            QCOMPARE(call(FUSE_RELEASE, node, quotaFsBytes(in)).error, 0);
        }
        fuse_forget_in forget{};
        forget.nlookup = 1;
        QVERIFY(!call(FUSE_FORGET, node, quotaFsBytes(forget)).sent);
    }

    fuse_kstatfs statfs() { return call(FUSE_STATFS, qfs::kRootId).as<fuse_statfs_out>().st; }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_cwd = QDir::currentPath().toLocal8Bit();
        // The handlers reach each inode's descriptor by its entry here (quotafs.h).
        QCOMPARE(::chdir("/proc/self/fd"), 0);
    }

    void cleanupTestCase()
    {
        m_fs.reset();
        QCOMPARE(::chdir(m_cwd.constData()), 0);
    }

    void init()
    {
        m_fs.reset();
        QDir(m_dir.path()).removeRecursively();
        QVERIFY(QDir().mkpath(m_dir.path()));
        qfs::QuotaFsOptions options;
        options.limits = {kQuotaBytes, kQuotaInodes};
        options.usedInodes = 1; // the root
        const int root =
            ::open(m_dir.path().toLocal8Bit().constData(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        QVERIFY(root >= 0);
        m_fs = std::make_unique<qfs::QuotaFs>(root, options);
        fuse_init_in in{};
        in.major = FUSE_KERNEL_VERSION;
        in.minor = FUSE_KERNEL_MINOR_VERSION;
        in.flags = FUSE_ASYNC_READ | FUSE_BIG_WRITES;
        const QuotaFsAnswer a = call(FUSE_INIT, 0, quotaFsBytes(in));
        QCOMPARE(a.error, 0);
        QCOMPARE(a.as<fuse_init_out>().max_write, std::uint32_t(qfs::kMaxWrite));
    }

    void nothingBeforeTheHandshake()
    {
        m_fs.reset();
        const int root =
            ::open(m_dir.path().toLocal8Bit().constData(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        m_fs = std::make_unique<qfs::QuotaFs>(root, qfs::QuotaFsOptions{});
        QCOMPARE(call(FUSE_STATFS, qfs::kRootId).error, EIO);
    }

    void statfsReportsTheBounds()
    {
        const fuse_kstatfs st = statfs();
        QCOMPARE(std::int64_t(st.blocks) * st.frsize, kQuotaBytes);
        QCOMPARE(std::int64_t(st.files), kQuotaInodes);
        QCOMPARE(std::int64_t(st.ffree), kQuotaInodes - 1);
    }

    void filesAreMadeAndFound()
    {
        fuse_mkdir_in mk{};
        mk.mode = 0755;
        QuotaFsAnswer a = call(FUSE_MKDIR, qfs::kRootId, quotaFsBytes(mk) + quotaFsName("d"));
        QCOMPARE(a.error, 0);
        const std::uint64_t dir = a.as<fuse_entry_out>().nodeid;
        QVERIFY(dir > qfs::kRootId);
        int err = 0;
        const auto [node, fh] = create(dir, "f", &err);
        QCOMPARE(err, 0);
        a = write(node, fh, 0, "hello");
        QCOMPARE(a.error, 0);
        QCOMPARE(a.as<fuse_write_out>().size, 5u);
        QFile onDisk(m_dir.path() + "/d/f");
        QVERIFY(onDisk.open(QIODevice::ReadOnly));
        QCOMPARE(onDisk.readAll(), QByteArray("hello")); // on the backing file at once
        a = call(FUSE_LOOKUP, dir, quotaFsName("f"));
        QCOMPARE(a.error, 0);
        QCOMPARE(a.as<fuse_entry_out>().nodeid, node);
        QCOMPARE(a.as<fuse_entry_out>().attr.size, 5u);
        // An unknown name: a negative entry (node 0) the kernel may cache, not an error.
        a = call(FUSE_LOOKUP, dir, quotaFsName("missing"));
        QCOMPARE(a.error, 0);
        QCOMPARE(a.as<fuse_entry_out>().nodeid, 0u);
    }

    void namesThatLeaveTheDirectoryAreRefused_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::newRow("dot dot") << QByteArray("..");
        QTest::newRow("dot") << QByteArray(".");
        QTest::newRow("slash") << QByteArray("../../etc/passwd");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("too long") << QByteArray(300, 'x');
    }

    void namesThatLeaveTheDirectoryAreRefused()
    {
        QFETCH(QByteArray, name);
        const QuotaFsAnswer a = call(FUSE_LOOKUP, qfs::kRootId, name + '\0');
        QVERIFY2(a.error == EINVAL || a.error == ENAMETOOLONG,
                 qPrintable(QString::number(a.error)));
        int err = 0;
        create(qfs::kRootId, name.constData(), &err);
        QVERIFY(err != 0);
        // control: a plain name works
        create(qfs::kRootId, "plain", &err);
        QCOMPARE(err, 0);
    }

    void writesPastTheBytesBoundGetEnospc()
    {
        int err = 0;
        const auto [node, fh] = create(qfs::kRootId, "big", &err);
        QCOMPARE(err, 0);
        const QByteArray chunk(256 * 1024, 'x');
        std::uint64_t offset = 0;
        QuotaFsAnswer a;
        // The first writes fit; the one at the bound is cut short, the next gets ENOSPC.
        for (int i = 0; i < 8; ++i) {
            a = write(node, fh, offset, chunk);
            if (a.error)
                break;
            offset += a.as<fuse_write_out>().size;
        }
        QCOMPARE(a.error, ENOSPC);
        QVERIFY2(std::int64_t(offset) >= kQuotaBytes - 64 * 1024 &&
                     std::int64_t(offset) <= kQuotaBytes,
                 qPrintable(QString::number(offset)));
        struct stat st
        {
        };
        QCOMPARE(::stat((m_dir.path() + "/big").toLocal8Bit().constData(), &st), 0);
        QVERIFY(std::int64_t(st.st_blocks) * 512 <= kQuotaBytes);
        QVERIFY(statfs().bfree * statfs().frsize < 64 * 1024);
        // A file larger than the disk is refused even as a hole.
        fuse_setattr_in set{};
        set.valid = FATTR_SIZE;
        set.size = std::uint64_t(kQuotaBytes) * 2;
        QCOMPARE(call(FUSE_SETATTR, node, quotaFsBytes(set)).error, ENOSPC);
        // Deleting gives the room back once the file is no longer open.
        QCOMPARE(call(FUSE_UNLINK, qfs::kRootId, quotaFsName("big")).error, 0);
        QVERIFY(statfs().bfree * statfs().frsize < 64 * 1024);
        letGo(node, fh);
        QVERIFY(std::int64_t(statfs().bfree * statfs().frsize) > kQuotaBytes - 64 * 1024);
        const auto again = create(qfs::kRootId, "again", &err);
        QCOMPARE(err, 0);
        QCOMPARE(write(again.first, again.second, 0, chunk).error, 0);
    }

    void inodesPastTheBoundGetEnospcButWhiteoutsFit()
    {
        int made = 0, err = 0;
        std::vector<std::uint64_t> nodes;
        for (; made < kQuotaInodes + 10; ++made) {
            fuse_mknod_in in{};
            in.mode = S_IFREG | 0644;
            const QByteArray name = QByteArray::number(made);
            const QuotaFsAnswer a = call(FUSE_MKNOD, qfs::kRootId, quotaFsBytes(in) + name + '\0');
            if (a.error) {
                err = a.error;
                break;
            }
            nodes.push_back(a.as<fuse_entry_out>().nodeid);
        }
        QCOMPARE(err, ENOSPC);
        QCOMPARE(made, int(kQuotaInodes) - 1); // the root is one
        QCOMPARE(statfs().ffree, 0u);
        // overlayfs deletes a lower file with a whiteout (a character device 0/0): there is a
        // reserve for those, so a full layer can still be cleaned up.
        fuse_mknod_in whiteout{};
        whiteout.mode = S_IFCHR | 0;
        whiteout.rdev = 0;
        const QuotaFsAnswer a =
            call(FUSE_MKNOD, qfs::kRootId, quotaFsBytes(whiteout) + quotaFsName("wh"));
        if (a.error == EPERM)
            QSKIP("mknod of a whiteout needs a kernel that allows it to this user");
        QCOMPARE(a.error, 0);
        QCOMPARE(call(FUSE_UNLINK, qfs::kRootId, quotaFsName("0")).error, 0);
        letGo(nodes[0]);
        QVERIFY(statfs().ffree <= 1u);
        QCOMPARE(call(FUSE_UNLINK, qfs::kRootId, quotaFsName("wh")).error, 0);
        letGo(a.as<fuse_entry_out>().nodeid);
        QCOMPARE(call(FUSE_UNLINK, qfs::kRootId, quotaFsName("1")).error, 0);
        letGo(nodes[1]);
        QCOMPARE(statfs().ffree, 2u);
    }

    void forgedRequestsAreErrors()
    {
        // A write claiming more data than the request holds, a handle never opened, an unknown
        // node: errors, never a read past the request or a crash.
        fuse_write_in in{};
        in.size = 4096;
        in.fh = 12345;
        QCOMPARE(call(FUSE_WRITE, qfs::kRootId, quotaFsBytes(in) + "abc").error, EINVAL);
        in.size = 3;
        QCOMPARE(call(FUSE_WRITE, qfs::kRootId, quotaFsBytes(in) + "abc").error, EBADF);
        QCOMPARE(call(FUSE_GETATTR, 999999, quotaFsBytes(fuse_getattr_in{})).error, ESTALE);
        QCOMPARE(call(FUSE_LOOKUP, qfs::kRootId, QByteArray("no-nul")).error, EINVAL);
        QVERIFY(!call(FUSE_FORGET, 999999, quotaFsBytes(fuse_forget_in{1})).sent);
        // control: the file system still answers
        QCOMPARE(call(FUSE_GETATTR, qfs::kRootId, quotaFsBytes(fuse_getattr_in{})).error, 0);
    }
};

QTEST_GUILESS_MAIN(TestQuotaFs)
#include "tst_quotafs.moc"
