#include "apiclient.h"

#include <utility>

namespace lizard::bench {

namespace {

size_t toString(char* ptr, size_t size, size_t n, void* userdata)
{
    static_cast<std::string*>(userdata)->append(ptr, size * n);
    return size * n;
}

size_t toSink(char* ptr, size_t size, size_t n, void* userdata)
{
    auto* sink = static_cast<std::function<bool(const char*, size_t)>*>(userdata);
    return (*sink)(ptr, size * n) ? size * n : 0; // 0 makes curl abort the transfer
}

} // namespace

std::string HttpResponse::describe() const
{
    if (status == 0)
        return "transfer failed: " + error;
    return "HTTP " + std::to_string(status) + ": " + body.substr(0, 300);
}

ApiClient::ApiClient(std::string baseUrl, std::string apiKey)
    : m_baseUrl(std::move(baseUrl)), m_apiKey(std::move(apiKey)), m_curl(curl_easy_init())
{
}

ApiClient::~ApiClient()
{
    curl_easy_cleanup(m_curl);
}

HttpResponse ApiClient::request(const std::string& method, const std::string& path,
                                const std::string& jsonBody)
{
    return perform(method, path, jsonBody, false);
}

HttpResponse ApiClient::stream(const std::string& path, const std::string& jsonBody,
                               std::function<bool(const char*, size_t)> onData)
{
    m_sink = std::move(onData);
    HttpResponse r = perform("POST", path, jsonBody, true);
    m_sink = nullptr;
    return r;
}

HttpResponse ApiClient::perform(const std::string& method, const std::string& path,
                                const std::string& jsonBody, bool eventStream)
{
    HttpResponse r;
    const std::string url = m_baseUrl + path;
    curl_easy_reset(m_curl); // keeps the connection cache: the next call reuses the socket
    curl_easy_setopt(m_curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(m_curl, CURLOPT_CUSTOMREQUEST, method.c_str());
    curl_easy_setopt(m_curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(m_curl, CURLOPT_TIMEOUT, 900L);
    curl_easy_setopt(m_curl, CURLOPT_TCP_NODELAY, 1L);
    curl_slist* headers = curl_slist_append(nullptr, ("X-API-Key: " + m_apiKey).c_str());
    if (!jsonBody.empty() || method == "POST") {
        headers = curl_slist_append(headers, "Content-Type: application/json");
        curl_easy_setopt(m_curl, CURLOPT_POSTFIELDS, jsonBody.c_str());
        curl_easy_setopt(m_curl, CURLOPT_POSTFIELDSIZE, long(jsonBody.size()));
    }
    headers = curl_slist_append(headers, eventStream ? "Accept: text/event-stream"
                                                     : "Accept: application/json");
    headers = curl_slist_append(headers, "Expect:"); // no 100-continue round trip
    curl_easy_setopt(m_curl, CURLOPT_HTTPHEADER, headers);
    std::string errorBody;
    if (eventStream) {
        curl_easy_setopt(m_curl, CURLOPT_WRITEFUNCTION, toSink);
        curl_easy_setopt(m_curl, CURLOPT_WRITEDATA, &m_sink);
    } else {
        curl_easy_setopt(m_curl, CURLOPT_WRITEFUNCTION, toString);
        curl_easy_setopt(m_curl, CURLOPT_WRITEDATA, &r.body);
    }
    const CURLcode rc = curl_easy_perform(m_curl);
    curl_slist_free_all(headers);
    if (rc != CURLE_OK) {
        r.error = curl_easy_strerror(rc);
        return r;
    }
    curl_easy_getinfo(m_curl, CURLINFO_RESPONSE_CODE, &r.status);
    return r;
}

} // namespace lizard::bench
