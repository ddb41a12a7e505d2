import 'dart:convert';
import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("POST", Uri.parse("https://api.example.com/login?api_key=k3y%2B1"));
  request.headers.addAll({
    "Content-Type": "application/x-www-form-urlencoded",
  });
  request.bodyBytes = utf8.encode("user=ada&pass=p%40ss+word");

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
