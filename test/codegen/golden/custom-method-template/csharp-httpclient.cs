using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("PROPFIND"), "{{baseUrl}}/dav/{{folder}}?depth={{depth}}");
request.Headers.TryAddWithoutValidation("Depth", "1");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
