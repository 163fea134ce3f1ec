#pragma once
// A WebSocket client for the terminal suites (Boost.Beast, blocking calls with deadlines): what
// an attached client sends and receives, message by message.

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <optional>
#include <string>

namespace lizard::test {

class TerminalSocket
{
public:
    struct Message
    {
        bool binary = false;
        QByteArray data;
        QJsonObject json() const { return QJsonDocument::fromJson(data).object(); }
        QString type() const { return binary ? QString() : json().value("type").toString(); }
    };

    // Upgrades GET `target` on 127.0.0.1:`port` with `key` (empty: none). True on 101; else
    // status() and body() hold the refusal.
    bool open(int port, const std::string& target, const std::string& key)
    {
        namespace beast = boost::beast;
        beast::error_code ec;
        beast::get_lowest_layer(m_ws).expires_after(std::chrono::seconds(10));
        beast::get_lowest_layer(m_ws).connect(
            boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"),
                                           static_cast<unsigned short>(port)),
            ec);
        if (ec)
            return fail(ec);
        m_ws.set_option(boost::beast::websocket::stream_base::decorator(
            [key](boost::beast::websocket::request_type& req) {
                if (!key.empty())
                    req.set("X-API-Key", key);
            }));
        m_ws.read_message_max(8u << 20);
        bool done = false;
        m_ws.async_handshake(m_response, "127.0.0.1", target, [&](beast::error_code e) {
            ec = e;
            done = true;
        });
        m_ioc.restart();
        m_ioc.run_for(std::chrono::seconds(10));
        if (!done)
            return fail(boost::asio::error::timed_out);
        m_status = int(m_response.result_int());
        m_body = QByteArray::fromStdString(m_response.body());
        if (ec)
            return fail(ec);
        beast::get_lowest_layer(m_ws).expires_never();
        m_open = true;
        return true;
    }

    int status() const { return m_status; }
    QByteArray body() const { return m_body; }
    QString error() const { return m_error; }
    bool isOpen() const { return m_open; }
    int closeCode() const { return m_closeCode; }

    bool sendBinary(const QByteArray& bytes) { return write(true, bytes.toStdString()); }
    bool sendText(const QByteArray& text) { return write(false, text.toStdString()); }
    bool sendJson(const QJsonObject& o)
    {
        return sendText(QJsonDocument(o).toJson(QJsonDocument::Compact));
    }

    // Reads until the binary output seen so far contains `needle`, a message matches
    // `textType` (when given), or `ms` passed. Text messages read on the way are kept.
    bool waitOutput(const QByteArray& needle, int ms = 10000)
    {
        QElapsedTimer t;
        t.start();
        while (!m_output.contains(needle)) {
            const int left = ms - int(t.elapsed());
            if (left <= 0 || !m_open)
                return false;
            auto m = next(left);
            if (!m)
                return m_output.contains(needle);
        }
        return true;
    }
    // The next text message of `type` within `ms` (others are kept in controls()).
    std::optional<QJsonObject> waitControl(const QString& type, int ms = 10000)
    {
        for (int i = 0; i < m_controls.size(); ++i)
            if (m_controls[i].value("type").toString() == type)
                return m_controls.takeAt(i);
        QElapsedTimer t;
        t.start();
        while (m_open) {
            const int left = ms - int(t.elapsed());
            if (left <= 0)
                return std::nullopt;
            auto m = next(left);
            if (!m)
                return std::nullopt;
            if (!m->binary && m->type() == type) {
                m_controls.removeLast();
                return m->json();
            }
        }
        return std::nullopt;
    }
    // Reads on until the server closed the connection (true) or `ms` passed.
    bool waitClosed(int ms = 5000)
    {
        QElapsedTimer t;
        t.start();
        while (m_open && t.elapsed() < ms)
            next(int(ms - t.elapsed()));
        return !m_open;
    }
    QByteArray output() const { return m_output; }
    void clearOutput() { m_output.clear(); }
    QList<QJsonObject> controls() const { return m_controls; }

    // A close handshake (a pending read ends with it).
    void close()
    {
        if (!m_open)
            return;
        m_open = false;
        m_ws.async_close(boost::beast::websocket::close_code::normal,
                         [](boost::beast::error_code) {});
        m_ioc.restart();
        m_ioc.run_for(std::chrono::seconds(3));
        m_pending = false;
    }

    // The next message within `ms`, or nullopt (timeout, or the connection closed: isOpen()).
    // A timeout leaves the read pending: the next call goes on waiting for the same message.
    std::optional<Message> next(int ms)
    {
        namespace beast = boost::beast;
        if (!m_open)
            return std::nullopt;
        if (!m_pending) {
            m_in.clear();
            m_pending = true;
            m_readDone = false;
            m_ws.async_read(m_in, [this](beast::error_code e, std::size_t) {
                m_readError = e;
                m_readDone = true;
            });
        }
        m_ioc.restart();
        m_ioc.run_for(std::chrono::milliseconds(ms));
        if (!m_readDone)
            return std::nullopt;
        m_pending = false;
        if (m_readError) {
            m_open = false;
            m_closeCode = int(m_ws.reason().code);
            m_error = QString::fromStdString(m_readError.message());
            return std::nullopt;
        }
        Message m;
        m.binary = m_ws.got_binary();
        m.data = QByteArray::fromStdString(beast::buffers_to_string(m_in.data()));
        if (m.binary)
            m_output += m.data;
        else
            m_controls.push_back(m.json());
        return m;
    }

private:
    bool write(bool binary, const std::string& data)
    {
        boost::beast::error_code ec;
        m_ws.binary(binary);
        m_ws.write(boost::asio::buffer(data), ec);
        if (ec) {
            m_error = QString::fromStdString(ec.message());
            return false;
        }
        return true;
    }

    bool fail(boost::beast::error_code ec)
    {
        m_error = QString::fromStdString(ec.message());
        return false;
    }

    boost::asio::io_context m_ioc;
    boost::beast::websocket::stream<boost::beast::tcp_stream> m_ws{m_ioc};
    boost::beast::websocket::response_type m_response;
    boost::beast::flat_buffer m_in;
    bool m_pending = false;
    bool m_readDone = false;
    boost::beast::error_code m_readError;
    QByteArray m_output;
    QList<QJsonObject> m_controls;
    QByteArray m_body;
    QString m_error;
    int m_status = 0;
    int m_closeCode = 0;
    bool m_open = false;
};

} // namespace lizard::test
