require "net/http"

uri = URI("https://api.example.com/blobs")
request = Net::HTTP::Post.new(uri)
request["Content-Type"] = "application/octet-stream"
request.body = "AAEC/v8iXD8KQQ==".unpack1("m")

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
