import okhttp3.MediaType.Companion.toMediaTypeOrNull
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.RequestBody.Companion.toRequestBody

fun main() {
    val request = Request.Builder()
        .url("https://api.example.com/%C3%BCn%C3%AF%20c%C3%B4d%C3%A9/%22q%22?name=a%20b&quote='x'&dollar=\$HOME&pct=100%25&caret=%5E&tick=%60&back=%5C&uni=%E6%97%A5%E6%9C%AC")
        .addHeader("X-Quote", "it's \"quoted\"")
        .addHeader("X-Dollar", "\$HOME \$(id) `id` \${x} #{y}")
        .addHeader("X-Backslash", "C:\\path\\n\\\"end\\")
        .addHeader("X-Percent", "%PATH% 100% %%")
        .addHeader("X-Caret", "a^b & c | d > e < f !g")
        .addHeader("X-Multi", "one")
        .addHeader("X-Multi", "two")
        .addHeader("Cookie", "a=1")
        .addHeader("Cookie", "b=2")
        .method("PATCH", "line1\nsingle 'quoted' and \"double\" quotes, \$HOME \$(id) `id` \${x}, back\\slash \\n \\\", %PATH% 100% %%, ^caret & amp | pipe > gt < lt, !bang, #{ruby} {brace}, tab\t, unicode héllo 日本 🚀, typographic ‘quotes’\r\nend".toByteArray().toRequestBody("text/plain; charset=utf-8".toMediaTypeOrNull()))
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
