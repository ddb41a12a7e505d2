// Host and Content-Length left out: OkHttp sets them from the URL and the body.
// Connection left out: it manages one connection, not the request, and Ferry does not send it either.
// Accept-Encoding left out: OkHttp sends its own and decompresses the answer.
// Body left out: OkHttp cannot send a body with GET.
import okhttp3.OkHttpClient
import okhttp3.Request

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/things")
        .addHeader("Content-Type", "application/json")
        .addHeader("X-Empty", "")
        .method("GET", null)
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
