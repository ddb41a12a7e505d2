import okhttp3.OkHttpClient
import okhttp3.Request

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/users?page=2&sort=name")
        .addHeader("Accept", "application/json")
        .addHeader("X-Trace", "abc")
        .method("GET", null)
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
