#pragma once
// Namespace aliases for the HTTP layer (as in Beast's examples).

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace lizard::http {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;
using tcp = boost::asio::ip::tcp;

using Request = bhttp::request<bhttp::string_body>;
using RequestHeader = bhttp::request_header<>;
using StringResponse = bhttp::response<bhttp::string_body>;

} // namespace lizard::http
