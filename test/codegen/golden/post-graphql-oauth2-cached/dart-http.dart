import 'dart:convert';
import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("POST", Uri.parse("https://api.example.com/graphql"));
  request.headers.addAll({
    "Authorization": "Bearer cached-token-123",
    "Content-Type": "application/json",
  });
  request.bodyBytes = utf8.encode("{\"query\":\"query User(\$id: ID!) { user(id: \$id) { name } }\",\"variables\":{\"id\":\"1\"},\"operationName\":\"User\"}");

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
