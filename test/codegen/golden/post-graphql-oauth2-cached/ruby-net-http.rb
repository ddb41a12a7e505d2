require "net/http"

uri = URI("https://api.example.com/graphql")
request = Net::HTTP::Post.new(uri)
request["Authorization"] = "Bearer cached-token-123"
request["Content-Type"] = "application/json"
request.body = "{\"query\":\"query User($id: ID!) { user(id: $id) { name } }\",\"variables\":{\"id\":\"1\"},\"operationName\":\"User\"}"

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
