require "net/http"

uri = URI("https://api.example.com/users")
request = Net::HTTP::Post.new(uri)
request["X-Workspace"] = "ferry"
request["Authorization"] = "Basic dXNlcjpwQHNz"
request["Content-Type"] = "application/json"
request.body = "{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}"

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
