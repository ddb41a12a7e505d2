import 'package:http/http.dart' as http;

Future<void> main() async {
  final request = http.Request("PROPFIND", Uri.parse("{{baseUrl}}/dav/{{folder}}?depth={{depth}}"));
  request.headers.addAll({
    "Depth": "1",
  });

  final response = await http.Response.fromStream(await request.send());
  print(response.statusCode);
  print(response.body);
}
