import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var request = URLRequest(url: URL(string: "https://api.example.com/notes/1")!)
request.httpMethod = "PUT"
request.setValue("Bearer eyJhbGciOi.J9", forHTTPHeaderField: "Authorization")
request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
request.httpBody = Data("Hello, world.\nSecond line.".utf8)

let (data, response) = try await URLSession.shared.data(for: request)
print((response as! HTTPURLResponse).statusCode)
print(String(decoding: data, as: UTF8.self))
