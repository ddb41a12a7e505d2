require "net/http"

uri = URI("https://api.example.com/raw")
request = Net::HTTP::Post.new(uri)
request["Content-Type"] = "text/plain"
request.body = "a\x00b\x01c\x1b[0m\x7fd"

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
