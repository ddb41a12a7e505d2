# Digest auth: this code cannot answer the server's Digest challenge, so it sends no credentials.
# Send the request from Ferry, or use a client with Digest support (for example curl --digest -u USER:PASSWORD).
require "net/http"

uri = URI("https://api.example.com/private")
request = Net::HTTP::Get.new(uri)

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
