# OAuth 2.0: Ferry has no cached access token for this request.
# Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
require "net/http"

uri = URI("https://api.example.com/me")
request = Net::HTTP::Get.new(uri)
request["Authorization"] = "Bearer <access-token>"

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
