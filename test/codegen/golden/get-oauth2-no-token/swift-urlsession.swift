// OAuth 2.0: Ferry has no cached access token for this request.
// Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var request = URLRequest(url: URL(string: "https://api.example.com/me")!)
request.httpMethod = "GET"
request.setValue("Bearer <access-token>", forHTTPHeaderField: "Authorization")

let (data, response) = try await URLSession.shared.data(for: request)
print((response as! HTTPURLResponse).statusCode)
print(String(decoding: data, as: UTF8.self))
