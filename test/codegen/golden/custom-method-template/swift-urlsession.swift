import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var request = URLRequest(url: URL(string: "{{baseUrl}}/dav/{{folder}}?depth={{depth}}")!)
request.httpMethod = "PROPFIND"
request.setValue("1", forHTTPHeaderField: "Depth")

let (data, response) = try await URLSession.shared.data(for: request)
print((response as! HTTPURLResponse).statusCode)
print(String(decoding: data, as: UTF8.self))
