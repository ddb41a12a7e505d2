// OAuth 2.0: Ferry has no cached access token for this request.
// Get one (Auth tab, Get new access token, or the token endpoint) and put it in place of <access-token>.
import okhttp3.OkHttpClient
import okhttp3.Request

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/me")
        .addHeader("Authorization", "Bearer <access-token>")
        .method("GET", null)
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
