using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("POST"), "https://api.example.com/blobs");
request.Content = new ByteArrayContent(Convert.FromBase64String("AAEC/v8iXD8KQQ=="));
request.Content.Headers.TryAddWithoutValidation("Content-Type", "application/octet-stream");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
