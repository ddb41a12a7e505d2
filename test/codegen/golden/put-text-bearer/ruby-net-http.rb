require "net/http"

uri = URI("https://api.example.com/notes/1")
request = Net::HTTP::Put.new(uri)
request["Authorization"] = "Bearer eyJhbGciOi.J9"
request["Content-Type"] = "text/plain"
request.body = "Hello, world.\nSecond line."

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
