# AWS Signature Version 4: the signature below was made for one send and expires soon.
# This code cannot sign each request: sign it again before sending (Ferry does this on every send).
require "net/http"

uri = URI("https://api.example.com/bucket/key")
request = Net::HTTP::Get.new(uri)
request["X-Amz-Date"] = "20260101T000000Z"
request["Authorization"] = "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc"

response = Net::HTTP.start(uri.hostname, uri.port, use_ssl: uri.scheme == "https") do |http|
  http.request(request)
end

puts response.code
puts response.body
