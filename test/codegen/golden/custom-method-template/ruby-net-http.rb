require "net/http"

uri = URI("{{baseUrl}}/dav/{{folder}}?depth={{depth}}")
request = Net::HTTPGenericRequest.new("PROPFIND", true, true, uri)
request["Depth"] = "1"

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
