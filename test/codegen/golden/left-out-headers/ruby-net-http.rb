# Host and Content-Length left out: Net::HTTP sets them from the URL and the body.
# Connection left out: it manages one connection, not the request, and Ferry does not send it either.
# Accept-Encoding left out: Net::HTTP sends its own and decompresses the answer.
require "net/http"

uri = URI("https://api.example.com/things")
request = Net::HTTP::Get.new(uri)
request["Content-Type"] = "application/json"
request["X-Empty"] = ""
request.body = "{\"q\":\"body on GET\"}"

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
