import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var request = URLRequest(url: URL(string: "https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote='x'&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC")!)
request.httpMethod = "PATCH"
request.setValue("it's \"quoted\"", forHTTPHeaderField: "X-Quote")
request.setValue("$HOME $(id) `id` ${x} #{y}", forHTTPHeaderField: "X-Dollar")
request.setValue("C:\\path\\n\\\"end\\", forHTTPHeaderField: "X-Backslash")
request.setValue("%PATH% 100% %%", forHTTPHeaderField: "X-Percent")
request.setValue("a^b & c | d > e < f !g", forHTTPHeaderField: "X-Caret")
request.setValue("one, two", forHTTPHeaderField: "X-Multi")
request.setValue("a=1; b=2", forHTTPHeaderField: "Cookie")
request.setValue("text/plain; charset=utf-8", forHTTPHeaderField: "Content-Type")
request.httpBody = Data("line1\nsingle 'quoted' and \"double\" quotes, $HOME $(id) `id` ${x}, back\\slash \\n \\\", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab\t, unicode héllo 日本 🚀, typographic ‘quotes’\r\nend".utf8)

let (data, response) = try await URLSession.shared.data(for: request)
print((response as! HTTPURLResponse).statusCode)
print(String(decoding: data, as: UTF8.self))
