// URLSession has no multipart support: the body is built by hand.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

var form = Data()
form.append(Data("------FerryFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n------FerryFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n------FerryFormBoundary7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.png\"\r\nContent-Type: image/png\r\n\r\n".utf8))
form.append(try Data(contentsOf: URL(fileURLWithPath: "/home/me/api/files/photo.png")))
form.append(Data("\r\n------FerryFormBoundary7MA4YWxkTrZu0gW--\r\n".utf8))

var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
request.httpMethod = "POST"
request.setValue("multipart/form-data; boundary=----FerryFormBoundary7MA4YWxkTrZu0gW", forHTTPHeaderField: "Content-Type")
request.httpBody = form

let (data, response) = try await URLSession.shared.data(for: request)
print((response as! HTTPURLResponse).statusCode)
print(String(decoding: data, as: UTF8.self))
