import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("GET", Uri.parse("https://api.example.com/users?page=2&sort=name"));
  request.headers.addAll({
    "Accept": "application/json",
    "X-Trace": "abc",
  });

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
