package index

import (
	"strings"

	"lwr/analyzer"
	"lwr/analyzer/lazyre"
)

// AskedKind is a kind of answer a question asks for.
type AskedKind uint16

// The kinds of answer. A question may ask for several (何日前まで: a
// quantity and a date).
const (
	// AskAmount: いくら, 金額, 宿泊代は (a sum of money).
	AskAmount AskedKind = 1 << iota
	// AskQuantity: 何日, 何文字以上, 何GB, どれくらい (a number with its unit).
	AskQuantity
	// AskDate: いつまで, 期限, 締め切り.
	AskDate
	// AskVersion: バージョン, どのJDK (a name with its version).
	AskVersion
	// AskPermission: してもいい, 使っていいの, ダメ (whether it is allowed).
	AskPermission
	// AskMethod: どうすれば, どうやって, 方法, 手順 (what to do).
	AskMethod
	// AskMeaning: どういう意味, とは (a definition).
	AskMeaning
	// AskThing: 何を, 何が必要, どんな項目 (the things a rule lists).
	AskThing
	// AskWho: 誰でも, 誰に, どこへ申し出る, 対象者は (who may, or whom to
	// go to).
	AskWho
)

var askedNames = []struct {
	k    AskedKind
	name string
}{{AskAmount, "金額"}, {AskQuantity, "数量"}, {AskDate, "期限"}, {AskVersion, "版"}, {AskPermission, "可否"}, {AskMethod, "方法"}, {AskMeaning, "意味"}, {AskThing, "事項"}, {AskWho, "対象"}}

// String names the kinds: 数量(文字)+可否.
func (a Asked) String() string {
	var parts []string
	for _, n := range askedNames {
		if a.Kinds&n.k != 0 {
			s := n.name
			if n.k == AskQuantity && a.Unit != "" {
				s += "(" + a.Unit + ")"
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "+")
}

// Asked is what a question asks for: the kinds of answer and, for a
// quantity, its unit (何文字 → 文字).
type Asked struct {
	Kinds AskedKind `json:"kinds,omitempty"`
	Unit  string    `json:"unit,omitempty"`
	// Bound: it asks for a limit of an amount or a quantity (何歳まで,
	// どのくらいまで, 上限は), which a value stated as one (1歳に達するまで,
	// 3か月以内, 最大5日) answers.
	Bound bool `json:"bound,omitempty"`
	// Paid: it asks whether a thing is paid (給料出る？, 手当はもらえる？),
	// which 無給とする or 通常の賃金を支給する answers.
	Paid bool `json:"paid,omitempty"`
}

// Has reports whether the question asks for a kind of answer.
func (a Asked) Has(k AskedKind) bool { return a.Kinds&k != 0 }

// Any reports whether the question asks for some kind of answer.
func (a Asked) Any() bool { return a.Kinds != 0 }

// Value reports whether it asks for a value (an amount, a quantity, a
// date or a version), which a line states or does not.
func (a Asked) Value() bool { return a.Kinds&(AskAmount|AskQuantity|AskDate|AskVersion) != 0 }

// Specific reports whether it asks for a value of a kind a line can be
// told to state or not: an amount, a date, a version or a number of a
// named unit (何文字, 何日); not a vague どれくらい.
func (a Asked) Specific() bool {
	return a.Kinds&(AskAmount|AskDate|AskVersion) != 0 || a.Kinds&AskQuantity != 0 && a.Unit != ""
}

var (
	askedUnitRe  = lazyre.New(`何\s*(文字|桁|営業日|日|時間|分|秒|回|か月|ヶ月|カ月|年|歳|人|名|社|件|泊|週間|割|%|パーセント|gb|mb|kb|tb|ビット|bit|バイト|byte|行|個|ページ|枚|点|pt|px|ポイント|度|メートル|km|m|重|段|階層|レベル)|(文字|日|時間|回|人|件|年|行|桁)数`)
	askedHowMuch = lazyre.New(`どれ(くらい|ぐらい|位)|どの(くらい|ぐらい|程度)|いくつ|何(個|つ)`)
	// A measure asked by name: 所要時間は, 文字数, エントロピー.
	askedMeasure = lazyre.New(`所要時間|期間(?:[はがをのって]|$|[？?])|長さ|幅|容量|サイズ|頻度|割合|比率|コントラスト比|エントロピー|ビット数|(?:^|[^b])メモリ|有効期限|時間は`)
	askedAmount  = lazyre.New(`いくら|幾ら|金額|料金|費用|値段|価格|予算|円|手当|[月年日]額|額(?:は|と|を|って|$)|掛金`)
	// askedPaid asks whether a thing is paid for; askedSum asks how much.
	askedPaid = lazyre.New(`有無|(もらえ(る|ます|ない)|出(る|ます|ない)|支給され(る|ます)|支払われ(る|ます)|負担(する|される|され|して)|持ち|対象(になる|になります|ですか))(の|ん(ですか)?|か)?(?:[？?]|$)|無給(?:[？?]|$|なの|ですか)`)
	askedSum  = lazyre.New(`いくら|幾ら|金額|何円|[0-9]円|何日|何時間|何回|何%|何割`)
	// A cost word at the end of a noun: ホテル代は, 交通費の; not 資料,
	// 時代 (the rune before tells).
	askedCost = lazyre.New(`(.)([代費料])(?:は|の|って|$)`)
	notCost   = map[string]bool{"資料": true, "材料": true, "原料": true, "燃料": true, "飲料": true, "食料": true, "無料": true, "時代": true, "世代": true, "年代": true, "交代": true, "現代": true, "近代": true, "古代": true, "消費": true, "浪費": true}
	// いつ asks when, whatever follows (いつ上がる, いつまでに, いつから,
	// いつもらえる); not いつも, いつか, いつでも.
	askedDate  = lazyre.New(`いつ(?:$|から|もら|[^もかで]|で(?:す|しょう))|期限|締め?切り?|日付|施行日|期日`)
	askedBound = lazyre.New(`(何|どの|どこ)[^、。？?]{0,8}(まで|以内)|上限|限度|最大|最長|最高|最多`)
	askedLimit = lazyre.New(`上限|下限|限度|最大|最長|最低|最小|以上|以下|まで`)
	// どのJava asks for a version; どのツール, どのブラウザ for a thing.
	askedVer    = lazyre.New(`バージョン|version|どの(jdk|java|os)|何の(jdk|java|バージョン)`)
	askedPermit = lazyre.New(`(なきゃ|なくちゃ|なければ|ないと)(いけ|なら|だめ|ダメ)|(て|で)も?(いい|良い|よい|ok|大丈夫|構わない|かまわない)|いいの|だめ|ダメ|禁止|可能(です)?か|できますか|許され|許可され|必須に|べき[？?]?$|べきですか|必要(ですか|か[？?]|[？?])|ありますか|[すくぐむぶつるう]の[？?]?$|でいいの|んだっけ`)
	// askedCan asks whether one can, in a potential form at the end (使える？
	// 取れる？ できる？).
	askedCan = lazyre.New(`[えけせてねべめれげき]る(の|ん(ですか)?|か)?[？?]$`)
	// askedPermitWords ask whether even in a question that asks how.
	askedPermitWords = lazyre.New(`(て|で)も?(いい|良い|よい|ok|大丈夫|構わない|かまわない)|だめ|ダメ|禁止|可能(です)?か|許され|許可され`)
	askedHow         = lazyre.New(`どう(すれば|したら|やって|やれば|すると|する|書け|書く|記録|提出|設定|対応|チェック)|どのように|どうやったら|方法|手順|やり方|仕方|には何をすれば|ようにするには`)
	askedMean        = lazyre.New(`どういう意味|意味は|意味って|とは[？?何]|って(?:何|なに)(?:$|[？?]|です|だ|な[のん]|の(?:こと|意味)|を(?:指す|意味))|何て(?:呼|言|い[うい])|何のこと|の定義`)
	// askedWho asks who may (誰でも, 対象者は) or whom to go to (誰に相談,
	// どこへ申し出る).
	askedWho   = lazyre.New(`誰|(?:^|[^よな])だれ|どなた|どこ(?:に|へ|まで)(?:相談|連絡|報告|申し出|申出|提出|届け|出せ|言え|聞け)|対象者|対象(?:は|って|になる|ですか)|どんな人|どういう人`)
	askedThing = lazyre.New(`何を|何が(必要|いる)|何と|どんな|どの(ツール|エディタ|ブラウザ|db|データベース|サービス|ライブラリ|アプリ)|どの項目|何に気を|何て(書|記入)|こと[はって]|ことは[？?]?$|気をつける|注意(点|すること)|課題|必要なもの|何で`)
)

// AskedOf reads what a question asks for from its words.
func AskedOf(q string) Asked {
	f := analyzer.Fold(q)
	var a Asked
	if m := askedUnitRe.FindStringSubmatch(f); m != nil {
		a.Kinds |= AskQuantity
		// 何個 counts anything (スペース何個: 2スペース).
		if u := unitName(m[1] + m[2]); u != "個" {
			a.Unit = u
		}
	}
	if askedHowMuch.MatchString(f) {
		a.Kinds |= AskQuantity
	}
	// 住宅手当ってもらえる？ 費用は会社持ち？ asks whether it is paid, not
	// how much (no いくら, no 円).
	whether := askedPaid.MatchString(f) && !askedSum.MatchString(f)
	if whether {
		a.Kinds |= AskPermission
		a.Paid = true
	}
	// 給料っていつ上がる？ asks when, not how much (no いくら, no 円).
	when := askedDate.MatchString(f)
	if askedAmount.MatchString(f) && !whether && !(when && !askedSum.MatchString(f)) {
		a.Kinds |= AskAmount
	}
	for _, m := range askedCost.FindAllStringSubmatch(f, -1) {
		if !notCost[m[1]+m[2]] && !whether && !(when && !askedSum.MatchString(f)) {
			a.Kinds |= AskAmount
		}
	}
	if when {
		a.Kinds |= AskDate | AskQuantity
	}
	if askedVer.MatchString(f) {
		a.Kinds |= AskVersion
	}
	if a.Kinds&(AskAmount|AskQuantity|AskDate) == 0 && askedLimit.MatchString(f) {
		a.Kinds |= AskAmount | AskQuantity
	}
	// A deadline's まで is its own (いつまでに申し出る): a bound is asked of
	// an amount or a quantity.
	a.Bound = a.Kinds&(AskAmount|AskQuantity) != 0 && a.Kinds&AskDate == 0 && askedBound.MatchString(f)
	if askedHow.MatchString(f) {
		a.Kinds |= AskMethod
	}
	// 〜するの？ asks whether, unless it asks how (どう切るの？).
	if askedPermit.MatchString(f) && (a.Kinds&AskMethod == 0 || askedPermitWords.MatchString(f)) {
		a.Kinds |= AskPermission
	}
	// 使える？ asks whether; 何日取れる？ how many.
	if askedCan.MatchString(f) && !askedSum.MatchString(f) && a.Kinds&AskMethod == 0 {
		a.Kinds |= AskPermission
	}
	if askedMean.MatchString(f) {
		a.Kinds |= AskMeaning
	}
	if askedThing.MatchString(f) {
		a.Kinds |= AskThing
	}
	if askedWho.MatchString(f) {
		a.Kinds |= AskWho
	}
	// A measure named (所要時間は, コントラスト比, エントロピー) asks for its
	// value unless the question asks how to do something with it.
	if askedMeasure.MatchString(f) && a.Kinds&(AskMethod|AskMeaning) == 0 {
		a.Kinds |= AskQuantity
	}
	return a
}

// unitNames folds the spellings of a unit into one.
var unitNames = map[string]string{"ヶ月": "か月", "パーセント": "%", "名": "人", "ケ月": "か月", "カ月": "か月", "箇月": "か月", "日間": "日", "分間": "分", "年間": "年", "bit": "ビット", "byte": "バイト", "ポイント": "pt", "文字数": "文字", "日数": "日", "時間数": "時間", "回数": "回", "人数": "人", "件数": "件", "年数": "年", "行数": "行", "桁数": "桁"}

// timeUnits are the units of a length of time, which answer when.
var timeUnits = map[string]bool{"日": true, "営業日": true, "時間": true, "分": true, "秒": true, "か月": true, "週間": true, "年": true, "歳": true}

func unitName(u string) string {
	if n, ok := unitNames[u]; ok {
		return n
	}
	return u
}

// QuantityUnits are the units a quantity is written in, as a regexp
// alternation (folded text: lower case).
const QuantityUnits = quantityUnits

// UnitName folds the spellings of a unit into one (ヶ月 → か月, 名 → 人).
func UnitName(u string) string { return unitName(u) }

// quantityUnits are the units a quantity is written in.
const quantityUnits = `文字|桁|営業日|日間|日|時間|分間|分|秒|回|か月|ヶ月|ケ月|カ月|箇月|週間|年間|年|歳|人|名|社|件|泊|gb|mb|kb|tb|ビット|bit|バイト|byte|行|個|ページ|枚|点|pt|px|ポイント|度|km|%|パーセント|割|スペース|倍|重|段|階層|レベル`

var (
	yenRe = lazyre.New(`[0-9][0-9,]*(?:\.[0-9]+)?\s*(?:億|万|千)?\s*円`)
	// quantityUnitRe is a number and its unit; dates are masked first.
	quantityUnitRe = lazyre.New(`([0-9][0-9,]*(?:\.[0-9]+)?|[一二三四五六七八九十]+)\s*(` + quantityUnits + `)`)
	// enoughRe is 十分 (enough) where no numeral comes before it and no
	// 間 after: 三十分 and 十分間 are minutes, 十分な時間 is no number.
	enoughRe = lazyre.New(`(^|[^0-9一二三四五六七八九十百千])十分($|[^間])`)
	// frequencyRe states how often: 毎日, 5分ごと, 1日1回, 月次.
	frequencyRe = lazyre.New(`毎(日|週|月|時|分|朝|晩|回)|[0-9一二三四五六七八九十]+\s*(分|時間|日|週間?|か月|ヶ月)\s*(ごと|おき|毎|に1回|に一回)|[日週月年]次|[0-9]+\s*回\s*/\s*[日週月]|h/[0-9]+|@(daily|hourly|weekly)`)
	// multiplierRe is a rate a formula multiplies by: 基本給 × 0.25.
	multiplierRe = lazyre.New(`[×✕]\s*[0-9]+(?:\.[0-9]+)?|[0-9]+(?:\.[0-9]+)?\s*[×✕]`)
	ratioRe      = lazyre.New(`[0-9]+(?:\.[0-9]+)?\s*[:：対]\s*1\b|[0-9]+(?:\.[0-9]+)?\s*:\s*1$`)
	dateRe       = lazyre.New(`(?:翌|毎|当|前|今|来|先|同)月\s*[0-9]{1,2}\s*日|[0-9]{4}\s*年(?:\s*[0-9]{1,2}\s*月(?:\s*[0-9]{1,2}\s*日)?)?|[0-9]{1,2}\s*月\s*[0-9]{1,2}\s*日|[0-9]{4}[-/.][0-9]{1,2}(?:[-/.][0-9]{1,2})?|(?:令和|平成|昭和)\s*(?:[0-9]+|元)\s*年度?`)
	deadlineRe   = lazyre.New(`[0-9一二三四五六七八九十]+\s*(日|営業日|週間|か月|ヶ月|カ月|時間)\s*(前|後|以内|まで|までに)|(前日|当日|翌日|翌月|月末|翌営業日|速やか|遅滞なく|直ちに|事前|事後)|(まで|までに)に?(申請|提出|届け|連絡)`)
	versionRe    = lazyre.New(`(?:バージョン|version|ver\.?)[^0-9\n]{0,15}(?:\s[0-9]+(?:\.[0-9]+)*|[0-9]+(?:\.[0-9]+)+)|(?:[a-z][a-z.+#-]*\s?|v|ver\.?\s?|バージョン\s?)[0-9]+(?:\.[0-9]+)+|(?:jdk|java|jre|openjdk|postgresql|mysql|oracle|python|ruby|node(?:\.js)?|go|php|windows|ubuntu|debian|macos|ios|android|eclipse|maven|gradle|tomcat|spring|ie|edge|chrome|firefox|safari|asvs|wcag|tls|http)\s?[0-9]+(?:\.[0-9]+)*`)
	// permitRe states whether a thing is allowed: a rule's modal.
	permitRe = lazyre.New(`禁止|限定|に限る|に限り|ては(なり|いけ)ません|ないでください|でき(ます|ません)|問題(は)?(ない|ありません)|構いません|かまいません|差し支えありません|大丈夫です|してはならない|してはいけない|しては(なら|いけ)ない|てはならない|てはいけない|ないこと|しないこと|すること|ること[。）)]?$|こと。|必須|必要がある|必要があります|必要はない|必要はありません|不要|不可|認め(る|ない|られ)|許可|できる|できない|可能|べき|べきでない|避け|使用しない|使わない|使用する|使う|原則|してよい|して良い|してもよい|しても良い|構わない|差し支えない|望ましい|推奨|\bmust\b|\bshould\b|\bng\b|\bok\b|\bmay\b`)
	// paidRe states whether a thing is paid: 無給とする, 有給とし, 通常の
	// 賃金を支給する, 支給しない; an amount (10,000円) says it is.
	paidRe   = lazyre.New(`有給と(?:する|し)|支給(?:する|される|します)|支払(?:う|われる)|負担する`)
	unpaidRe = lazyre.New(`無給|支給(?:しない|されない|しません)|支払(?:わない|われない)|負担しない`)
	// methodRe states what to do: a procedure's steps, a command.
	methodRe = lazyre.New(`手順|方法|してください|して下さい|します。|する。$|すること|を使(う|用)|で確認|ツール|コマンド|\$\s|をクリック|を押|を選|を入力|を設定|をインストール|を実行|申請|提出|届け出|連絡|記入|記載|登録|相談|依頼`)
	// boundRe states a value as a limit: 1歳に達するまで, 3か月以内, 通算93日の
	// 範囲内, 最大20日; not a deadline (2週間前まで).
	boundRe = lazyre.New(`([0-9][0-9,.]*|[一二三四五六七八九十]+)\s*(?:` + quantityUnits + `|円|万円)\s*(?:に達する日|に達する|になる|を経過する)?\s*(?:まで|以内|以下|未満|の範囲内|の範囲で|を限度|を上限|を超えない|を超えて)|(?:最大|最長|最高|上限|限度)\s*(?:は|を|で)?\s*[0-9一二三四五六七八九十]`)
	// whoRe states who may (対象者は…に限る, 正社員を対象とする) or whom to
	// go to (人事部に, 所属長へ).
	whoRe     = lazyre.New(`対象(?:者|従業員|と(?:する|なる|しない))|(?:者|人|従業員|社員|職員)(?:に限る|に限り|を対象|が対象|を除く|を除き)|(?:人事|総務|経理|法務|労務|管理)(?:部|課|室|係|担当)|(?:部署|部長|課長|所属長|上長|上司|担当者|責任者|窓口|相談員|委員会)(?:に|へ|まで|が)(?:[^、。]{0,12})?(?:相談|連絡|報告|申し出|申出|提出|届け|通知)`)
	meaningRe = lazyre.New(`とは|という意味|を意味|を表す|を指す|の略|の意|定義|説明|[:：=]\s*\S`)
)

// statesLimit reports whether folded text states a value as a limit
// (boundRe), a date's まで left out: 2025年3月31日まで is a deadline.
func statesLimit(f string) bool {
	return boundRe.MatchString(dateRe.ReplaceAllString(f, "#"))
}

// States reports whether text states the asked value itself (128文字 for
// 何文字, 5,000円 for いくら), whatever kind of document it stands in.
func (a Asked) States(text string) bool {
	return a.Value() && a.stated(analyzer.Fold(text)) >= 1
}

// stated says how well a folded line or unit states an answer of the
// asked kinds: 1 for the asked value itself (128文字 for 何文字; 5,000円 for
// いくら), less for the signs of a rule, a procedure or a definition, 0
// for none.
func (a Asked) stated(f string) float64 {
	if a.Kinds == 0 || f == "" {
		return 0
	}
	best := 0.0
	if a.Has(AskAmount) && yenRe.MatchString(f) {
		best = 1
	}
	if a.Has(AskQuantity) {
		masked := dateRe.ReplaceAllStringFunc(f, func(m string) string { return strings.Repeat("#", len(m)) })
		masked = enoughRe.ReplaceAllString(masked, "$1##$2") // 十分な時間: enough, not 10 minutes
		for _, m := range quantityUnitRe.FindAllStringSubmatch(masked, -1) {
			u := unitName(m[2])
			switch {
			case a.Unit == "" && a.Has(AskDate) && !timeUnits[u]:
				// いつまでに is answered by 1か月前, not by 2回.
				best = max(best, 0.3)
			case a.Unit == "" || u == a.Unit:
				best = max(best, 1)
			default:
				best = max(best, 0.3)
			}
		}
		if a.Unit == "" && (ratioRe.MatchString(f) || frequencyRe.MatchString(f) || multiplierRe.MatchString(f)) {
			best = max(best, 1)
		}
	}
	if a.Has(AskDate) && (dateRe.MatchString(f) || deadlineRe.MatchString(f)) {
		best = max(best, 1)
	}
	if a.Has(AskVersion) && versionRe.MatchString(f) {
		best = max(best, 1)
	}
	// The signs of a rule, a procedure or a definition; less when the
	// question asks for a value too (何文字まで書いていい: the number is
	// the answer, not the rule's MUST).
	sign := 1.0
	if a.Value() {
		sign = 0.5
	}
	if a.Has(AskPermission) && permitRe.MatchString(f) {
		best = max(best, 0.6*sign)
	}
	if a.Paid {
		// The amount says it is paid and how much, 支給しない that it is
		// not; 支給する says only that it is, and maybe of another case
		// (本人が死亡した場合).
		switch {
		case yenRe.MatchString(f), unpaidRe.MatchString(f):
			best = max(best, 1)
		case paidRe.MatchString(f):
			best = max(best, 0.8)
		}
	}
	if a.Has(AskMethod) && methodRe.MatchString(f) {
		best = max(best, 0.4*sign)
	}
	if a.Has(AskMeaning) && meaningRe.MatchString(f) {
		best = max(best, 0.4*sign)
	}
	if a.Has(AskWho) && whoRe.MatchString(f) {
		best = max(best, 1*sign)
	}
	return best
}
