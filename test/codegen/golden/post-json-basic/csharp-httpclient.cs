using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("POST"), "https://api.example.com/users");
request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes("{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}"));
request.Headers.TryAddWithoutValidation("X-Workspace", "ferry");
request.Headers.TryAddWithoutValidation("Authorization", "Basic dXNlcjpwQHNz");
request.Content.Headers.TryAddWithoutValidation("Content-Type", "application/json");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
