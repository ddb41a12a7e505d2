// Content-Type left out: HttpClient sets it with the multipart boundary.
using System.Net.Http.Headers;
using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("POST"), "https://api.example.com/upload");
var form = new MultipartFormDataContent();
HttpContent part;
part = new ByteArrayContent(Encoding.UTF8.GetBytes("Holiday"));
form.Add(part, "title");
part = new ByteArrayContent(Encoding.UTF8.GetBytes("{\"a\":1}"));
part.Headers.ContentType = MediaTypeHeaderValue.Parse("application/json");
form.Add(part, "meta");
part = new ByteArrayContent(File.ReadAllBytes("/home/me/api/files/photo.png"));
part.Headers.ContentType = MediaTypeHeaderValue.Parse("image/png");
form.Add(part, "photo", "photo.png");
request.Content = form;

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
