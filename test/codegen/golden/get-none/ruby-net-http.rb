require "net/http"

uri = URI("https://api.example.com/users?page=2&sort=name")
request = Net::HTTP::Get.new(uri)
request["Accept"] = "application/json"
request["X-Trace"] = "abc"

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
