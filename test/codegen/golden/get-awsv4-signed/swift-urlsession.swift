// AWS Signature Version 4: the signature below was made for one send and expires soon.
// This code cannot sign each request: sign it again before sending (Ferry does this on every send).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var request = URLRequest(url: URL(string: "https://api.example.com/bucket/key")!)
request.httpMethod = "GET"
request.setValue("20260101T000000Z", forHTTPHeaderField: "X-Amz-Date")
request.setValue("AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=abc", forHTTPHeaderField: "Authorization")

let (data, response) = try await URLSession.shared.data(for: request)
print((response as! HTTPURLResponse).statusCode)
print(String(decoding: data, as: UTF8.self))
