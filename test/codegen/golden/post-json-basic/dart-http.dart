import 'dart:convert';
import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("POST", Uri.parse("https://api.example.com/users"));
  request.headers.addAll({
    "X-Workspace": "ferry",
    "Authorization": "Basic dXNlcjpwQHNz",
    "Content-Type": "application/json",
  });
  request.bodyBytes = utf8.encode("{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}");

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
