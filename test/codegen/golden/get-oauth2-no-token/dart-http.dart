// OAuth 2.0: Ferry has no cached access token for this request.
// Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("GET", Uri.parse("https://api.example.com/me"));
  request.headers.addAll({
    "Authorization": "Bearer <access-token>",
  });

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
