// Host and Content-Length left out: URLSession sets them from the URL and the body.
// Connection left out: URLSession refuses to set this header.
// Accept-Encoding left out: URLSession sends its own and decompresses the answer.
// Body left out: URLSession cannot send a body with GET.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var request = URLRequest(url: URL(string: "https://api.example.com/things")!)
request.httpMethod = "GET"
request.setValue("application/json", forHTTPHeaderField: "Content-Type")
request.setValue("", forHTTPHeaderField: "X-Empty")

let (data, response) = try await URLSession.shared.data(for: request)
print((response as! HTTPURLResponse).statusCode)
print(String(decoding: data, as: UTF8.self))
