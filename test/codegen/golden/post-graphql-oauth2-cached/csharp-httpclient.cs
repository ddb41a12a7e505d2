using System.Text;

using var client = new HttpClient();
using var request = new HttpRequestMessage(new HttpMethod("POST"), "https://api.example.com/graphql");
request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes("{\"query\":\"query User($id: ID!) { user(id: $id) { name } }\",\"variables\":{\"id\":\"1\"},\"operationName\":\"User\"}"));
request.Headers.TryAddWithoutValidation("Authorization", "Bearer cached-token-123");
request.Content.Headers.TryAddWithoutValidation("Content-Type", "application/json");

using var response = await client.SendAsync(request);
Console.WriteLine((int)response.StatusCode);
Console.WriteLine(await response.Content.ReadAsStringAsync());
