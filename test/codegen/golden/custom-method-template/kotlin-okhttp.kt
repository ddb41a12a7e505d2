import okhttp3.OkHttpClient
import okhttp3.Request

fun main() {
    val request = Request.Builder()
        .url("{{baseUrl}}/dav/{{folder}}?depth={{depth}}")
        .addHeader("Depth", "1")
        .method("PROPFIND", null)
        .build()

    OkHttpClient().newCall(request).execute().use { response ->
        println(response.code)
        println(response.body!!.string())
    }
}
