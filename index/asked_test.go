package index

import (
	"testing"

	"lwr/analyzer"
)

func TestAskedOf(t *testing.T) {
	tests := []struct {
		q    string
		want string
	}{
		{"Rubyのコードって1行何文字まで書いていい？", "数量(文字)+可否"},
		{"開発用のPCってメモリ何GB以上あればいいの？", "数量(gb)+可否"},
		{"出張のホテル代の上限はいくらですか", "金額"},
		{"有給休暇はいつまでに申請すればいい？", "数量+期限"},
		{"開発環境にはどのJDKを入れればいいですか？", "版"},
		// Which tool is a thing, not a version; when a pay rises, a date.
		{"課題管理ってどのツールを使うの？", "可否+事項"},
		{"給料っていつ上がるの？昇給のタイミングが知りたい", "数量+期限"},
		{"給料って毎月いつ振り込まれますか", "数量+期限"},
		{"給料はいくら、いつ振り込まれる？", "金額+数量+期限"},
		{"いつも使うツールは？", ""},
		{"有給はいつから使える？", "数量+期限+可否"},
		{"ボーナスはいつもらえる？", "数量+期限+可否"},
		{"USBメモリは使っていいですか", "可否"},
		// Who may, and whom to go to.
		{"選択公休って、誰でも使えるの？", "可否+対象"},
		{"パワハラを受けたら誰に相談すればいい?", "対象"},
		{"育休を取りたいんだけど、いつまでにどこへ申し出ればいい？", "数量+期限+対象"},
		{"developブランチにforce pushしてもいいんだっけ？", "可否"},
		{"コントラスト比が足りてるかってどうやってチェックするの？", "方法"},
		{"文字の色と背景色のコントラスト比はどれくらい必要？", "数量+可否"},
		{"[IMO]とか[NITS]ってどういう意味？", "意味"},
		{"選択公休って何？", "意味"},
		{"奥さんが出産するとき、休みって何日もらえる？", "数量(日)"},
		{"プルリクのテンプレートにはどんな項目を入れておけばいい？", "事項"},
		{"Rubyのインデントってスペース何個？", "数量"},
		{"IIJ Bootcampの「Gitの使い方」講義の所要時間は？", "数量"},
		{"臨時社員でも住宅手当ってもらえる？", "可否"},
		{"健康診断の費用は全部会社持ち？", "可否"},
		{"宿泊費はいくらまで出る？", "金額"},
		{"家族手当はいくらもらえる?", "金額"},
		{"退職金共済契約の掛金月額と、その負担者は？", "金額"},
		{"役職手当の支給額は？", "金額"},
		// A potential form at the end asks whether (使える？), a period the
		// asker is in (試用期間中) is a condition, 有無 asks whether it is
		// paid, not how much.
		{"入社したばかりでまだ試用期間中なんだけど、本を買ったときの補助って使える？", "可否"},
		{"フレックスで今月の労働時間がちょっと足りなかった。正社員だと給料から引かれる？", "可否"},
		{"子どもが熱を出したときの看護休暇って、年に何日取れる？", "数量(日)"},
		{"管理監督者に対する時間外労働手当及び休日労働手当の支給の有無は？", "可否"},
		{"試用期間は？", "数量"},
		{"飾りで置いてるだけの画像にも、ちゃんとaltの説明文を書かなきゃいけないの？", "可否"},
		{"VPN 接続", ""},
	}
	for _, tt := range tests {
		if got := AskedOf(tt.q).String(); got != tt.want {
			t.Errorf("AskedOf(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

// A limit is asked of an amount or a quantity; a deadline's まで is its own.
func TestAskedBound(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want bool
	}{
		{"育休って子どもが何歳になるまで取れるの？", true},
		{"勤続2年だと休職ってどのくらいまでできる？", true},
		{"出張のホテル代の上限はいくらですか", true},
		{"育休を取りたいけど、いつまでに申し出ればいい?", false},
		{"家から会社まで6kmだと通勤手当はいくら？", false},
		{"副業してもいい?", false},
	} {
		if got := AskedOf(tt.q).Bound; got != tt.want {
			t.Errorf("AskedOf(%q).Bound = %v, want %v", tt.q, got, tt.want)
		}
	}
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"子が1歳に達するまでを限度とする", true},
		{"子が1歳に達する日までの間", true},
		{"勤続1年以上3年未満 ・・・ 3か月以内", true},
		{"通算93日の範囲内で", true},
		{"休暇日数 最大5日", true},
		{"2025年3月31日までに申請する", false},
		{"2週間前までに申し出る", false},
	} {
		if got := statesLimit(analyzer.Fold(tt.line)); got != tt.want {
			t.Errorf("statesLimit(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// stated: the asked value itself counts 1, a value of another unit less,
// the signs of a rule or a procedure less again, an example nothing.
func TestAskedStated(t *testing.T) {
	tests := []struct {
		q, line string
		want    float64
	}{
		{"パスワードは何文字以上？", "パスワードは12文字以上とする。", 1},
		{"パスワードは何文字以上？", "パスワードは90日ごとに変更する。", 0.3},
		// 十分 is enough, not 10 minutes; 三十分 is 30 minutes.
		{"確認コードは何分で失効させる？", "更新指示は、十分な時間をとって送信する。", 0},
		{"確認コードは何分で失効させる？", "確認コードは三十分で失効する。", 1},
		{"確認コードは何分で失効させる？", "確認コードは十分間で失効する。", 1},
		{"宿泊料はいくら？", "宿泊料は、1泊につき10,000円を上限とする。", 1},
		{"どのJDKを入れればいい？", "JDK バージョン,エディション等 OpenJDK 21", 1},
		{"PostgreSQLのバージョンは？", "| RDBMS | PostgreSQL | 16 |", 0},
		{"PostgreSQLのバージョンは？", "バージョン,エディション等 16", 1},
		{"何％まで拡大できればいい？", "200パーセントに拡大した際問題が発生しないようにする", 1},
		{"何人に承認をもらえばいい？", "最低1名以上の承認を必須とする", 1},
		{"Gitはバージョンいくつ以上？", "Gitのバージョンは2.20以上を使いましょう。", 1},
		{"force pushしてもいい？", "developブランチは force push 禁止とする。", 0.6},
		{"何文字まで書いていい？", "1行で書く場合は空白を入れること。", 0.3},
		{"コントラスト比はどれくらい必要？", "通常のテキストは 4.5:1 以上", 1},
		{"有給休暇はいつまでに申請する？", "取得日の3営業日前までに申請する。", 1},
		// Whether it is paid: no is an answer, an amount says yes and how
		// much, 支給する only yes.
		{"慶弔休暇で休んだ日って給料出る？それとも無給？", "前項を除く休暇等の期間は、無給とする。", 1},
		{"退職金ってもらえる？", "退職金は支給しない。", 1},
		{"弔慰金は出る?", "祖父母、兄弟姉妹 5,000円", 1},
		{"弔慰金は出る?", "従業員本人が死亡した場合の弔慰金は、その遺族に支給する。", 0.8},
		{"弔慰金は出る?", "住宅手当の支給を受けようとする者は、申請書を提出する。", 0},
		// A formula's rate states how much more is paid.
		{"夜10時を過ぎて仕事したら、手当ってどれくらい上乗せされる？", "深夜労働手当 = 基本給 × 0.25 × 深夜労働の時間数", 1},
		{"選択公休って、誰でも使えるの？", "選択公休制度の対象者は、フレックスタイム制の適用を受ける者に限る。", 1},
		{"選択公休って、誰でも使えるの？", "従業員は、月曜日から金曜日のうち1日を公休とする事を申し出ることができる。", 0.6},
		{"パワハラを受けたら誰に相談すればいい?", "ハラスメントを受けた者は、人事部の相談窓口に相談することができる。", 1},
		{"選択公休って、誰でも使えるの？", "定員は1人とする。", 0},
		{"パワハラを受けたら誰に相談すればいい?", "関係者の全部に連絡する。", 0},
		// いつまでに is answered by a length of time, not by a count.
		{"育休はいつまでに申し出ればいい？", "2回に分割する場合は、初回の申出の際にまとめて申し出なければならない。", 0.3},
		{"育休はいつまでに申し出ればいい？", "開始予定日の1か月前までに申し出るものとする。", 1},
		{"有給はいつから使える？", "入社6か月後に10日を付与する。", 1},
		{"親が亡くなったら何日休める？", "見舞金は、申請月の翌月25日の給与と合わせて振り込みます。", 0},
		// A restriction says whether: only static content is checked with it.
		{"MacのVoiceOverで確認してもいいの？", "macOS VoiceOverによるチェックは、スタティックなコンテンツに限定し、その他のチェックはNVDAで実施する", 0.6},
	}
	for _, tt := range tests {
		if got := AskedOf(tt.q).stated(analyzer.Fold(tt.line)); got != tt.want {
			t.Errorf("AskedOf(%q).stated(%q) = %g, want %g", tt.q, tt.line, got, tt.want)
		}
	}
}

func TestKindOf(t *testing.T) {
	tests := []struct {
		path, title string
		want        DocKind
	}{
		{"規程/旅費規程.md", "旅費規程", KindRule},
		{"様式/出張旅費精算書の記入例.md", "出張旅費精算書 記入例", KindForm},
		{"様式説明/人事関係届出様式の記入要領.md", "人事関係届出様式の記入要領", KindForm},
		{".github/ISSUE_TEMPLATE/bug_report.md", "bug_report.md", KindForm},
		{"メモ/新人向けFAQ.md", "新人向けFAQ", KindFAQ},
		{"メモ/2026-05-20_定例会議議事録.md", "定例会議議事録", KindMinutes},
		{"ossgate/workshop/tutorial/retrospectives/2016-01-30.md", "2016-01-30", KindMinutes},
		{"future/documents/forMarkdown/sample/ui/UIS01/index.md", "UIS01 トップページ", KindExample},
		// A folder whose name only holds such a word names no kind.
		{"tis/guide_3.6/Sample_Project/サンプルプロジェクト開発ガイド/PGUT工程/開発環境構築ガイド.md", "開発環境構築ガイド", KindRule},
	}
	for _, tt := range tests {
		if got := KindOf(tt.path, tt.title); got != tt.want {
			t.Errorf("KindOf(%q, %q) = %q, want %q", tt.path, tt.title, got, tt.want)
		}
	}
	if !KindMinutes.AsksAbout("2016年1月30日のワークショップで参加者が開発対象にしたOSSは何だった？") || KindForm.AsksAbout("宿泊料の上限はいくら？") {
		t.Error("AsksAbout: a question about minutes is about them; a question about the rule is not about a form")
	}
}
