import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

public class Main {
    public static void main(String[] args) throws Exception {
        HttpRequest request = HttpRequest.newBuilder()
            .uri(URI.create("https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote='x'&dollar=$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC"))
            .header("X-Quote", "it's \"quoted\"")
            .header("X-Dollar", "$HOME $(id) `id` ${x} #{y}")
            .header("X-Backslash", "C:\\path\\n\\\"end\\")
            .header("X-Percent", "%PATH% 100% %%")
            .header("X-Caret", "a^b & c | d > e < f !g")
            .header("X-Multi", "one")
            .header("X-Multi", "two")
            .header("Cookie", "a=1; b=2")
            .header("Content-Type", "text/plain; charset=utf-8")
            .method("PATCH", HttpRequest.BodyPublishers.ofString("line1\nsingle 'quoted' and \"double\" quotes, $HOME $(id) `id` ${x}, back\\slash \\n \\\", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab\t, unicode h\u00e9llo \u65e5\u672c \ud83d\ude80, typographic \u2018quotes\u2019\r\nend", StandardCharsets.UTF_8))
            .build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode());
        System.out.println(response.body());
    }
}
