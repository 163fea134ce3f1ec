#pragma once
// A blocking HTTP client for the Lizard API over one libcurl easy handle, so consecutive calls
// reuse one keep-alive connection (as a real client would).

#include <curl/curl.h>
#include <functional>
#include <string>

namespace lizard::bench {

struct HttpResponse
{
    long status = 0; // 0 when the transfer failed
    std::string body;
    std::string error; // curl's message when the transfer failed

    bool ok() const { return status >= 200 && status < 300; }
    std::string describe() const; // "HTTP 404: {...}" or the transfer error
};

class ApiClient
{
public:
    ApiClient(std::string baseUrl, std::string apiKey);
    ~ApiClient();
    ApiClient(const ApiClient&) = delete;
    ApiClient& operator=(const ApiClient&) = delete;

    HttpResponse request(const std::string& method, const std::string& path,
                         const std::string& jsonBody = {});

    // POSTs jsonBody with Accept: text/event-stream and hands every received chunk to onData
    // (return false from it to abort). The answer's body stays empty.
    HttpResponse stream(const std::string& path, const std::string& jsonBody,
                        std::function<bool(const char*, size_t)> onData);

    const std::string& baseUrl() const { return m_baseUrl; }
    const std::string& apiKey() const { return m_apiKey; }

private:
    HttpResponse perform(const std::string& method, const std::string& path,
                         const std::string& jsonBody, bool eventStream);

    std::string m_baseUrl;
    std::string m_apiKey;
    CURL* m_curl = nullptr;
    std::function<bool(const char*, size_t)> m_sink;
};

} // namespace lizard::bench
