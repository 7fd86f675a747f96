import Testing

/// Segment titles ("Home", "Search", "Profile" and the like) in each script
/// that the text must show with real glyphs: Latin, Greek, Cyrillic, Arabic,
/// Hebrew, Devanagari, Thai, Chinese, Japanese, Korean.
struct ScriptTitles: CustomTestStringConvertible, Sendable {
    let script: String
    let titles: [String]
    var testDescription: String { script }

    static let all: [ScriptTitles] = [
        ScriptTitles(script: "latin", titles: ["Home", "Search", "Profile"]),
        ScriptTitles(script: "greek", titles: ["Αρχική", "Αναζήτηση", "Προφίλ"]),
        ScriptTitles(script: "cyrillic", titles: ["Главная", "Поиск", "Профиль"]),
        ScriptTitles(script: "arabic", titles: ["الرئيسية", "بحث", "الملف الشخصي"]),
        // The third is too long for its box: cut short on its left, where a
        // right-to-left title ends.
        ScriptTitles(script: "hebrew", titles: ["בית", "חיפוש", "הגדרות החשבון והפרטיות"]),
        ScriptTitles(script: "devanagari", titles: ["होम", "खोज", "प्रोफ़ाइल"]),
        ScriptTitles(script: "thai", titles: ["หน้าแรก", "ค้นหา", "โปรไฟล์"]),
        ScriptTitles(script: "chinese", titles: ["首页", "搜索", "个人资料"]),
        ScriptTitles(script: "japanese", titles: ["ホーム", "検索", "設定"]),
        ScriptTitles(script: "korean", titles: ["홈", "검색", "프로필"]),
    ]
}
