# Content-Type left out: Net::HTTP sets it with the multipart boundary.
require "net/http"

uri = URI("https://api.example.com/upload")
request = Net::HTTP::Post.new(uri)
request.set_form([
  ["title", "Holiday"],
  ["meta", "{\"a\":1}", { content_type: "application/json" }],
  ["photo", File.open("/home/me/api/files/photo.png", "rb"), { filename: "photo.png", content_type: "image/png" }],
], "multipart/form-data")

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
