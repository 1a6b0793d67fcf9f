# ページとサーバーのことば（日本語）。書式は Project Fluent（docs/i18n.md）。
# en.ftl と同じ id をすべて持つこと。ゲーム名（CUBED, Unstackable, STAKD, CUBES）と
# 手の記法は訳さない。

## 言語の切り替え

language-switch = 言語

## index.html

page-tagline = キューブで遊ぶテーブルゲーム
page-loading = 読み込み中…

## 席と人

seat-you = あなた
seat-bot = { $bot ->
    [random] ランダムボット
    [greedy] 欲ばりボット
    [mcts] 思考ボット
    [alphabeta] αβボット
   *[other] { $name }ボット
  }
seat-bot-numbered = { seat-bot } { $number }
seat-player = プレイヤー{ $number }
seat-label = 席{ $seat }
seat-label-bot = { $bot }ボット
server-said = サーバーの応答: { $status }

## スタートページ

start-title = cubegames
start-unreachable = サーバーにつながりません: { $reason }
start-game-group = ゲーム
start-seed-placeholder = ランダム
start-play = ゲームを始める
start-players = { $count }人
start-players-range = { $low }〜{ $high }人
start-options = { $game } の設定
start-who = 参加するプレイヤー
start-who-plays = { $role }で遊ぶ人
start-you-here = あなた（この画面で）
start-someone-here = この画面で遊ぶ別の人
start-friend = 離れた場所の友だち（リンクを送る）
start-other-bot = 名前で選ぶ別のボット…
start-bot-placeholder = 例: mcts:iterations=500（{ $names }）
start-bot-for = { $role }のボット
start-name-placeholder = 名前（任意）
start-name-of = { $role }の名前
start-hot-seat = この画面で複数人が遊びます。手番が替わるたびに端末を次の人に渡すよう案内が出ます。
start-heading = ゲームを選んで、席に着こう
start-lead = キューブで遊ぶ{ $count }種類のテーブルゲーム。ここでボットと対戦したり、1台の端末を回して遊んだり、友だちにリンクを送って一緒に遊んだりできます。
start-deal = 配り方
start-seed = シード値（同じシード値なら同じ配り方になります）
invite-copy = コピー
invite-copied = コピーしました
invite-copy-by-hand = 手動でコピーしてください
invite-link-for = { $role }へのリンク
invite-heading = 友だちそれぞれにリンクを送りましょう
invite-once = リンクで席に着けるのは、最初に開いたブラウザー1つだけです。その席で遊ぶ人にだけ送ってください。なくしてしまったときは、ゲームのページから席を再発行できます。
invite-watch = 観戦はこのアドレスからだれでもできます:
invite-go = ゲームへ進む
games-heading = ゲーム一覧
games-loading = 読み込み中…
games-none-playing = 進行中のゲームはありません。
games-none-finished = 終了したゲームはまだありません。
games-playing = 進行中
games-finished = 終了
games-replay = リプレイ
games-record = 記録
games-continue = 続ける
games-watch = 観戦
games-moves = { $moves }手
games-won-by = 勝者: { $who }
games-nobody-won = 勝者なし
load-heading = 記録を読み込む
load-about = ゲームから保存した記録ファイルを1手ずつ再現します。終了したゲームはリプレイで開きます。途中のゲームはこの画面でだけ続きを遊べます（ファイルには全員の手持ちのピースが書かれているので、席をほかの人に渡すことはできません）。
load-file = 記録ファイルを選ぶ
load-no-file = ファイルが選ばれていません
load-button = 読み込む
load-choose = 先に記録ファイルを選んでください。

## 組み込みゲームの紹介と設定

pitch-cubed = 三色の六角形のピースを、接する辺の色がそろうように置いていきます。先に手持ちのピースをなくした人の勝ち。
pitch-unstackable = 2人で色つきキューブを4×4×4の立方体に積み上げ、次に崩しながら得点を集めます。
pitch-stakd = 自分のピースで層を1段ずつ積み重ねます。最後のピースを置いた人がラウンドの勝者。
pitch-cubes = 6個のサイコロを振り、ポットを取るか支払うか。3セットで最も得点の多い人の勝ち。
option-players = 人数
option-players-help = 1人ならソロプレイ
option-edition = 版
option-variants = バリエーション
option-rounds = ラウンド数
option-rounds-help = 空欄なら3（ソロは1）
option-points_to_win = 勝利に必要な得点
option-points_to_win-help = 空欄なら3（ソロは1）
option-sets = セット数
choice-cubed-edition-en = 英語版（6人まで）
choice-cubed-edition-ja = 日本語版（2〜11人）
choice-cubed-variants-bridging = ギャップを埋める: 2つのかたまりをつなぐと、もう1つピースを置ける
choice-cubed-variants-void = 空白を埋める: 穴をふさぐと、ピースを1つほかの人に渡せる
choice-cubed-variants-draw3 = ドロー3、キープ1
option-cubed-strict_colors = 接する辺はすべて同じ色
option-cubed-strict_colors-help = オフ: 2辺そろえば置ける
option-unstackable-bag_counts_as_exposed = 袋に接する面も露出面に数える
option-unstackable-exact_counts = 1手番で色ごとの個数をちょうど置く
option-unstackable-exact_counts-help = オフ: 1個からその個数まで置いて手番を終える
choice-stakd-edition-standard = STAKD
option-stakd-uni_opens_beside_bombers = BOMBER があっても UNI で新しい層を始められる
option-stakd-uni_opens_beside_bombers-help = オフ: 手持ちが UNI だけのときに限り UNI で層を始められる
choice-cubes-edition-standard = 標準
option-cubes-referee = 実物のサイコロ: 出た目を入力する
option-cubes-referee-help = 自前のサイコロで遊ぶテーブル向け。例: roll 1 C . 6 . 3
bot-greedy = 欲ばりボット: いちばん良さそうな手をすぐ選ぶ
bot-random = ランダムボット: 合法手から無作為に選ぶ
bot-mcts = 思考ボット: 1秒ほど先を読んでから手を選ぶ

## リプレイ

replay-back = スタートページへ戻る
replay-title = { $game } のリプレイ · cubegames
replay-move-number = 手数
replay-seen-by = 視点
replay-spectator = 観戦者
replay-in-notation = 記法: { $move }
replay-play = 再生
replay-pause = 一時停止
replay-start = ゲーム開始時の局面です。
replay-won = { $who }の勝ち · { $scores }
replay-draw = 引き分け
replay-games = ‹ ゲーム一覧
replay-heading = { $game } · リプレイ
replay-still-playing = 対局中のゲームです。観戦者と同じ視点で表示しています
replay-first = 最初の手
replay-previous = 前の手
replay-next = 次の手
replay-last = 最後の手
replay-finished = { $when } に終了。
replay-save = 記録を保存
replay-watch = ライブで観戦
replay-moves = 手の記録

## 「遊び方」の短いルール（ゲームと行ごと）

howto-cubed-1 = { $edition ->
    [ja] 1手番にピースを1つ置きます。3つ目のピースからは少なくとも2つのピースに接し、接する辺はすべて同じ色でなければなりません。
   *[other] 1手番にピースを1つ置きます。3つ目のピースからは少なくとも2つのピースに接し、接する辺はすべて同じ色でなければなりません（白はブロッキングピース以外のどの色とも合います）。
  }
howto-cubed-2 = { $edition ->
    [ja] ブロッキングピースのミッドナイトパープルの辺はどれとも接しません。そのとなりのマスは死んだマス（×）になります。
   *[other] 黒い辺はどれとも接しません。そのとなりのマスは死んだマス（×）になります。
  }
howto-cubed-3 = { $players ->
    [1] 置けるピースがなければピースを引きます（2回まで）。それでも置けないとき、またはバッグが空のときは負けです。
   *[other] 置く代わりにバッグからピースを1つ引き、そのあと置くかパスできます。バッグが空ならパスできます。
  }
howto-cubed-4 = { $players ->
    [1] 手持ちのピースをすべて置ければ勝ちです。
   *[other] { $edition ->
        [ja] 手持ちをなくせばラウンドの勝ち。手元に残ったピースの点数が加算されます: シングル1、ダブル2、トリプル3、ブロッキング5。合計のいちばん低い人の勝ち。
       *[other] 手持ちをなくせばラウンドの勝ち。手元に残ったピースの点数が加算されます: シングル1、ダブル2、トリプル3、ブロッキング5、ワイルド10。合計のいちばん低い人の勝ち。
      }
  }
howto-cubed-variants-bridging = ギャップを埋める: ピースを置いたマスのまわりのピースが2つ以上の離れたかたまりに分かれていれば、その手番にもう1つピースを置けます（パスしてもかまいません。引くことはできません）。
howto-cubed-variants-void = 空白を埋める: 6辺すべてを囲まれたマスにピースを置いたら、手持ちのピースを1つほかの人に渡せます（渡さなくてもかまいません）。最後の1つを渡せば手持ちがなくなります。
howto-cubed-variants-draw3 = ドロー3、キープ1: 手番のはじめに、代わりにピースを1〜3個引いて1つを手元に残し、残りをバッグに戻してもかまいません。これで手番は終わりです。
howto-cubed-strict_colors-false = このテーブルでは、色のそろった辺が2つあれば置けます。ほかの辺は違う色でもかまいません。
howto-unstackable-1 = 第1段階: 色を1つ選び、黒なら3個、赤なら2個、黄色なら1個積みます。袋の上のキューブは袋の上のほかのキューブに接し、上の段のキューブはすぐ下にキューブが必要です。幅・奥行き・高さが4以内なら、どの方向へ広げてもかまいません。
howto-unstackable-2 = 黒だけが残ったら、残りのマスはすべて黒で埋まります。
howto-unstackable-3 = 第2段階: 1手番にキューブを2個取ります。上に何も載っておらず、3面以上が露出しているキューブを取れます。最後の赤を積んだ人が後手です。
howto-unstackable-4 = 手番の1個目は山1へ（黄5点、赤3点）、2個目は山2へ（黒1点）。得点の多い人の勝ち。
howto-stakd-1 = まず全員が BASE（2×3）を層0に、互いに接するように置きます。
howto-stakd-2 = 次に1手番に1つずつ、いまの層にピースを置きます。どのノードも下のピースに載り、その層のピースに接し、1つのピースに同じ種類のピースを2つ載せてはいけません。
howto-stakd-3 = BLUE BOMBER はその下のピースを終わらせます。そのピースにはもう何も置けません。
howto-stakd-4 = いまの層にピースが6つあるか、いまの層に置けないときは、新しい層を始められます。BOMBER では始められず、UNI で始められるのは手持ちが UNI だけのときです。どこにも置けない人はそのラウンドから脱落します。
howto-stakd-5 = { $players ->
    [1] ソロ: 手持ちのピースをすべて置けば勝ち（最後の1つは BLUE BOMBER 以外）。その前に置けなくなれば負けです。
   *[other] 最後にピースを置いた人（BOMBER は除く）がラウンドの勝者で、1点を得ます。
  }
howto-cubes-1 = 6個のサイコロを振ります。数字だけなら、その合計をポットから取ります。
howto-cubes-2 = CUBES と数字1〜2個: ほかの全員が5点ずつ払い、そのあと合計の2倍を取ります。
howto-cubes-3 = CUBES と数字3個以上: ほかの全員が5点ずつ払い、そのあとポットをすべて取ります。CUBES だけ: ほかの全員が5点ずつ払います。すべて空白: 2点払います。
howto-cubes-4 = ポットが足りなければ何も取らず、足りないぶんを払います。
howto-cubes-5 = 払いきれなかった人がセットを終わらせ、そのセットは0点です。{ $sets }セットで、得点の最も多い人の勝ち。
rules-how-to-play = 遊び方
rules-full = ルール全文
rules-not-loaded = ルールを読み込めませんでした。
rules-plugin-unwritten = このゲームの作者は、ここにルールを書いていません。
rules-plugin-options = 設定
rules-plugin-seats = { $least }〜{ $most }人
rules-plugin-seats-fixed = { $count }人
rules-plugin-default = 指定しなければ { $value }

## 対局画面

play-invite-spent = この招待はすでに使われています
play-invite-spent-why = 招待で席に着けるのは、最初に開いたブラウザー1つだけです（または、別のゲームの招待です）。
play-watch-game = ゲームを観戦する
play-all-games = ゲーム一覧
play-connection = 接続
play-type-move = 手を入力
play-play = 決定
play-moves-so-far = これまでの手
play-moves-in-notation = 記法で見る手
play-protocol = このページのプロトコルは { $page }、サーバーは { $server } です。ページを再読み込みしてください。
play-online = 接続中
play-reconnecting = 再接続中…
play-pass-show = { $name }です: 自分のピースを見る
play-pass-to = 端末を{ $name }に渡してください
play-pass-look-away = ほかの人は画面を見ないでください。次の画面にこのプレイヤーの手持ちが表示されます。
play-trouble = 問題が起きました: { $trouble }
trouble-bot-cannot-play = { $who }はこのゲームを遊べません。ゲームは止まっています。詳しくはサーバーの管理者に尋ねてください。
trouble-bot-failed = { $who }でエラーが起きたため、続きを指せません。ゲームは止まっています。
trouble-bot-refused = { $who }がルールで認められない手を選んだため、続きを指せません。ゲームは止まっています。
trouble-bot-lost = { $who }の手を保存できませんでした。ページを再読み込みしてください。
play-won = { $who }の勝ち
play-you-won = あなたの勝ち
play-you-won-heading = あなたの勝ちです！
play-named-your-turn = { $name }: あなたの番です
play-your-turn = あなたの番です
play-thinking = { $name }が考えています…
play-waiting = { $name }の参加を待っています
play-their-turn = { $name }の番です
play-reissued = （再発行 { $count }回）
play-watching = 観戦中です。
play-nothing-to-do = あなたの番まで待ちましょう。
play-legal-moves = 指せる手は{ $count }通りです。盤面にすべて表示しています。
play-log-move = { $ply }手目
play-log-move-notation = { $ply }手目（記法: { $move }）
play-replay-this = このゲームをリプレイ
play-save-mine = 自分の記録を保存
play-spectator-link = 観戦用リンク
play-round-over = 第{ $round }ラウンド終了
play-next-round = 次のラウンドへ
play-see-board = 盤面を見る
play-rematch = 再戦
play-new-game = 新しいゲーム
play-results = 結果
play-copy-invitation = 招待をコピー
play-reissue = 席を再発行
play-reissue-confirm = { $name }に新しい招待を送りますか？ いまその席にいる人は席を失います。
play-copy-failed = コピーできませんでした
play-not-connected = 接続が切れています。再接続中なので、少ししてからもう一度試してください。

## CUBES

cubes-die = { $colour }のサイコロ: { $face }
cubes-blank = 空白
cubes-colour-red = 赤
cubes-colour-orange = オレンジ
cubes-colour-yellow = 黄
cubes-colour-green = 緑
cubes-colour-blue = 青
cubes-colour-purple = 紫
cubes-table = サイコロとポット
cubes-roll = サイコロを振る
cubes-rolling = 振っています…
cubes-pot = ポット: { $chips }枚
cubes-set = 第{ $set }セット（全{ $sets }セット）
cubes-your-roll = あなたが振る番です。
cubes-rolls-next = 次は{ $name }が振ります。
cubes-seat-line = チップ{ $chips }枚 · { $points }点
cubes-bust = { $name }が払いきれなかったので、このセットは終わりです。
cubes-all-sets = { $sets ->
    [1] セットが終わりました。
   *[other] 全{ $sets }セットが終わりました。
  }

## ゲーム画面で共通のことば

view-3d = 3D表示
view-layers = 層ごと
game-over = ゲームは終了しました。
not-your-turn = まだあなたの番ではありません。

## STAKD（ピース名 UNI、BLUE BOMBER などは訳さない）

stakd-views = 積み上がりの表示
stakd-left = 残り{ $count }
stakd-turn = 回す
stakd-layer-from-above = 層{ $z }を上から見た図
stakd-layer = 層
stakd-you-are-out = このラウンドは脱落です。置けるピースがありません。
stakd-laying = 第{ $round }ラウンド: 層{ $z }に置いています。
stakd-choose-piece = 置くピースを選んでください。
stakd-point = 光っている場所を選んで { $piece } を置いてください。
stakd-choose-first = 先にピースを選んでください。
stakd-cannot-go-why = { $piece } はここに置けません。すべてのノードが下の層のピースの上に載り、空いている場所でなければなりません。
stakd-no-piece-on-layer = いまは層{ $z }にピースを置けません。
stakd-taken = この場所はふさがっています。
stakd-cannot-go = { $piece } はここに置けません。
stakd-laid = { $who }が層{ $z }に { $piece } を置きました。
stakd-out = このラウンドは脱落
stakd-seat-line = { $points }点 · 残り{ $pieces }ピース
stakd-round-won = { $you ->
   *[other] だれもピースを置けなくなりました。最後のピースを置いた{ $who }がラウンドに勝ちました（BOMBER は数えません）。
  }
stakd-reached = { $who }が{ $points }点に到達しました。

## Unstackable

unst-colour-Y = 黄色
unst-colour-R = 赤
unst-colour-K = 黒
unst-bottom-layer = いちばん下の層
unst-layer = 層{ $z }
unst-place = { $layer }の{ $cell }
unst-cube-title = { $removable ->
    [true] 取り出せる{ $colour }のキューブ: { $place }
   *[other] { $colour }のキューブ: { $place }
  }
unst-or = { $first }か{ $last }
unst-comma = 、
unst-spot-title = ここに{ $colours }のキューブを置けます: { $place }
unst-views = 立方体の表示
unst-supply = 残り{ $left } · 1手番に{ $per }個
unst-end-turn = 手番を終える
unst-stage1-others = 第1段階: 立方体を組み上げています。
unst-stacking = { $colour }を積んでいます（{ $per }個中{ $placed }個）。
unst-tap-to-stack = 光っているマスをタップして{ $colour }を積みます。
unst-choose-colour = 積む色を選んでください。
unst-stage2-others = 第2段階: キューブを取り出しています。
unst-take = 緑の輪のついたキューブを取ってください。山{ $pile }に入ります。
unst-plan-label = { $bottom ->
    [true] いちばん下の層（袋の上）を上から見た図。手前が図の下側です
   *[other] 層{ $z }を上から見た図。手前が図の下側です
  }
unst-bottom-title = いちばん下の層
unst-layer-title = 層{ $z }
unst-front = 手前
unst-front-floor = 手前
unst-3d-label = 立体で見た立方体。ドラッグで回せます。床の「手前」の帯が手前で、各層の図の下側にあたります
unst-cell-taken = このマスはふさがっています。光っているマスに積んでください。
unst-cannot-come-out = このキューブはいま取り出せません。3面以上が露出し、上に何も載っていないことが必要です。
unst-take-ringed = 緑の輪のついたキューブを取ってください。
unst-nothing-holds = ここにはキューブを支えるものがありません。真下にキューブが必要です。
unst-no-cube-here = いまここには置けません。置ける場所は光っています。
unst-choose-colour-first = 先に色を選んでください。
unst-no-colour-here = ここには{ $colour }のキューブを置けません。
unst-stacked = { $who }が{ $place }に{ $colour }のキューブを積みました。
unst-took = { $colour ->
    [none] { $who }が{ $place }からキューブを取り出しました。
   *[other] { $who }が{ $place }から{ $colour }のキューブを取り出しました。
  }
unst-points = { $points }点
unst-bare = 袋の上は空になりました。キューブはすべて取り出されました。

## CUBED（色名とピースの呼び名は日本語版ルールブックに合わせる）

cubed-colour-green = グリーン
cubed-colour-purple = パープル
cubed-colour-light-pink = ライトピンク
cubed-colour-neon-pink = ネオンピンク
cubed-colour-yellow = イエロー
cubed-colour-blue = ブルー
cubed-colour-black = ブラック
cubed-colour-white = ホワイト
cubed-colour-admiral-blue = アドミラルブルー
cubed-colour-cyber-grape = サイバーグレープ
cubed-colour-cobi-pink = コビピンク
cubed-colour-peach-pie = ピーチパイ
cubed-colour-white-almond = ホワイトアーモンド
cubed-colour-midnight-purple = ミッドナイトパープル
cubed-cells = { $halves ->
   *[other] { $text }マス
  }
cubed-middle = テーブルの中央
cubed-rows = { $dir ->
    [up] { $rows }段上
   *[other] { $rows }段下
  }
cubed-rows-only = { $dir ->
    [up] 最初のピースの{ $rows }段上
   *[other] 最初のピースの{ $rows }段下
  }
cubed-across = { $dir ->
    [right] { $cells }右
   *[other] { $cells }左
  }
cubed-place = { $both ->
    [true] 最初のピースから{ $rows }、{ $across }
   *[other] 最初のピースから{ $across }
  }
cubed-draw = ピースを引く
cubed-pass = パス
cubed-skip = 渡さない
cubed-table = テーブル
cubed-zoom-in = 拡大
cubed-zoom-out = 縮小
cubed-fit = テーブル全体を表示
cubed-your-hand = あなたの手持ち
cubed-black-touches = 黒い辺はどれとも接してはいけませんが、この向きだと接してしまいます。
cubed-beside-black = となりのピースのこちら側は黒い辺です。何も接することができません。
cubed-mismatch = この辺は{ $mine }ですが、となりのピースは{ $theirs }です。
cubed-touch-two = ここでは1つのピースにしか接しません。少なくとも2つに接する必要があります。
cubed-dead = 死んだマス: 黒い辺に接しています
cubed-first-mark = 最初のピース: 記録の場所はここから数えます
cubed-may-go = 手持ちのピースを置けるマス: { $where }
cubed-open = 空いているマス: { $where }
cubed-label-may-go = { $name }: 手持ちのピースを置けます
cubed-label-fits = { $name }: 選んだピースを置けます
cubed-label-no-fit = { $name }: 選んだピースは置けません
cubed-label-fits-turned = { $turns ->
    [1] { $name }: 選んだピースを1回回せば置けます
   *[other] { $name }: 選んだピースを2回回せば置けます
  }
cubed-turn-piece = ピースを回す
cubed-turn = 回す
cubed-fits-count = { $cells ->
   *[other] この向きで置けるマスは{ $cells }か所
  }
cubed-fits = { $how ->
    [key] { cubed-fits-count }。Enter で輪のついたマスに置き、R で回します。
    [mouse] { cubed-fits-count }。光っているマスへドラッグするか、クリックしてください。
   *[other] { cubed-fits-count }。光っているマスをタップしてください。
  }
cubed-turn-it = この向きでは置けません。回してください。
cubed-fits-nowhere = このピースはいまどこにも置けません。
cubed-ask-mouse = 手持ちのピースをテーブルへドラッグするか、クリックしてください。
cubed-ask-touch = 手持ちのピースをタップしてください。
cubed-ask-wait = まだ手番ではありませんが、そのあいだにピースを選んで回しておけます。
cubed-fits-on-your-turn = 置ける場所は自分の手番に表示されます。
cubed-none-fits = 置けるピースがありません。引くかパスしてください。
cubed-watching = 観戦中です。手持ちのピースは見えません。
cubed-hand-empty = 手持ちのピースはありません。
cubed-draw3 = { $count }個引いて1個残す
cubed-keep-piece = { $piece } を残す
cubed-keep = 残す
cubed-give = { $piece } を{ $name }に渡す
cubed-drawn = 引いたピース: { $pieces }
cubed-first-choose = 先に手持ちのピースを選んでください。
cubed-first-tap = 先に手持ちのピースをタップしてください。
cubed-fits-turned = { $how ->
    [drop] { $turns }回回せばここに置けます。ドラッグ中に R を押す（またはホイールを回す）と回ります。回したらここで離してください。
    [key] { $turns }回回せばここに置けます。R で回してから Enter を押してください。
   *[other] { $turns }回回せばここに置けます。「回す」をタップしてから、このマスをタップしてください。
  }
cubed-ringed = { $text }。オレンジの輪で示しています。
cubed-laid-ringed = { $who }がピースを置きました。オレンジの輪で示しています。
cubed-points = { $points }点
cubed-in-hand = { $pieces ->
   *[other] 手持ち{ $pieces }個
  }
cubed-laid-every = { $who }がすべてのピースを置きました。
cubed-fewest = 手元に残った点数がいちばん少ない人: { $who }。
cubed-piece = ピース { $piece }
cubed-stuck = だれもピースを置けず、バッグも空になりました。

## サーバーが返すエラー

error-no-game = ゲーム「{ $game }」はありません
error-token-in-address = 認証情報をアドレスに入れることはできません。Authorization: Bearer ヘッダーで送ってください
error-credential-opens-nothing = この認証情報で開ける席はこのゲームにありません
error-too-many-games = このアドレスからのゲーム作成が多すぎます（1分間に{ $count }件まで）。{ $wait }後にやり直してください
error-open-tables = 参加者を待っているあなたの公開テーブルがすでに{ $count }つあります。どれかで遊ぶか、どれかの席が埋まるのを待ってから新しいテーブルを開いてください
error-too-many-seat-changes-client = このアドレスからの招待の使用と席の再発行が多すぎます（1分間に{ $count }回まで）。{ $wait }後にやり直してください
error-too-many-seat-changes-game = このゲームでの招待の使用と席の再発行が多すぎます（1分間に{ $count }回まで）。{ $wait }後にやり直してください
error-busy-connections = サーバーが混み合っています（接続が{ $count }件開いています）。しばらくしてからやり直してください
error-no-rules = 「{ $game }」のルールはありません。ゲームは { $games } です
error-no-pool = { $game }にはレーティングのプール「{ $pool }」はありません。プールは { $pools } です
error-seat-count = このゲームの席は{ $seats }つですが、{ $given }人分が指定されました
error-seed-with-invite = シード値: 自分で選べるシード値は、1つの画面で遊ぶゲームかボットだけのゲーム用です。招待したプレイヤーがいるゲームは秘密の配り方になります
error-invite-used = この招待はすでに使われたか、このゲームのものではありません。あなたの席なら、ホストに再発行を頼んでください
error-only-host = 席を再発行できるのはこのゲームのホストだけです
error-not-a-person = 席{ $seat }は、このゲームで人が遊ぶ席ではありません
error-game-over = このゲームは終了しています
error-deal-picked = このゲームの配り方は作成者が選んだもので、作成者は全員の手持ちのピースを知っています。席はこの画面から動かせず、ほかの人には渡せません
error-record-hidden = 記録には伏せられたピースがすべて書かれているため、保存できるのはゲーム終了後です。各席は自分の認証情報で、自分から見た記録を保存できます
error-no-seat = 席{ $seat }はありません
error-seat-view = 対局中のゲームを席の視点で見るには、その席の認証情報が必要です
error-seat-handed = この席は{ $ply }手目からボットが指しています。そこから先のこの席の視点は、ゲームが終わるまでボットのものです
error-file-too-large = ファイルが大きすぎます（{ $bytes }バイトまで）
error-body-large = 送られた内容が大きすぎます（{ $bytes }バイトまで）
error-body-slow = 送られた内容が届くまでに{ $seconds }秒以上かかりました
error-body-deep = 送られた内容の入れ子が深すぎます（{ $levels }段まで）

## テーブル（ラウンド、在席、音）

start-plays-first = 先手
load-not-a-record = これは cubegames で保存したゲームの記録ではありません。「記録を保存」で保存したファイルを選んでください。
load-bad-record = この記録は読み込めません: { $reason }
unst-pile = 山{ $pile }
unst-pile-label = 山{ $pile }: { $count }個
unst-pile-empty = 空
play-host-tag = ホスト
play-presence-here = この画面で
play-presence-bot = ボット
play-presence-online = 在席中
play-presence-away = 離席中
play-presence-invited = 招待はまだ使われていません
play-left = { $name }が席を離れました。
play-back = { $name }が席に戻りました。
play-claimed = { $name }が席に着きました。
play-reissued-by-host = ホストが{ $name }に新しい招待を出しました。
play-round-of = 第{ $round }ラウンド（全{ $rounds }ラウンド）
play-round-heading = 第{ $round }ラウンド
play-round-over-of = 第{ $round }ラウンド終了（全{ $rounds }ラウンド）
play-set-over = 第{ $round }セット終了
play-set-over-of = 第{ $round }セット終了（全{ $rounds }セット）
play-next-set = 次のセットへ
play-waiting-for = { $count ->
   *[other] { $names }が見終わると続きます。
  }
play-starts-in = あと{ $seconds }秒で続きます。
play-went-on = プレイは先に進んでいます。
play-round-column = 第{ $round }R
play-total = 合計
play-sound-on = 音あり
play-sound-off = 音なし
play-sound-title = 音: { $sounds }。
play-sound-separator = 、
sound-turn = 2音のチャイム（あなたの番）
sound-laid = やわらかいコツンという音（ピースやキューブが置かれた）
sound-removed = 軽いカチッという音（キューブが取り出された）
sound-rolled = カラカラという音（サイコロが振られた）
play-paused = ラウンドの結果を表示しています。まもなく続きます。
play-invite-spent-ask = あなたの席なら、ホストに再発行を頼んでください。新しいリンクが届きます。
cubed-bag = バッグの残り{ $count }個
cubes-chips-label = チップ
cubes-chip-count = { $chips }枚
cubes-all-sets-bust = { $name }は払いきれませんでした。{ cubes-all-sets }
stakd-status = 第{ $round }ラウンド · { $goal }点先取で勝ち

## 持ち時間・投了・待った (clocks.js)
clock-clocks = 持ち時間
clock-none = 持ち時間なし
clock-realtime = リアルタイム
clock-turn-based = ターン制
clock-custom = 自分で決める…
clock-minutes = 1人あたりの分数
clock-increment = 1手ごとに足す秒数
clock-days = 1手{ $count }日
clock-days-hours = { $days }日{ $hours }時間
clock-time-control = 持ち時間
clock-first-move = 最初の手のあとに動き出します
clock-waiting = 待機中
clock-low = 残り時間わずか
clock-resign = 投了
clock-abort = 中止
clock-claim-win = 勝ちを申し出る
clock-claim-bot = ボットに代わりに指させる
clock-confirm-resign = このゲームを投了しますか？ ほかのプレイヤーが続けるか、勝ちになります。
clock-confirm-abort = このゲームを中止しますか？ 結果なしで終わります。
clock-gone = { $who }が自分の番のまま{ $grace }秒以上席を離れています。
clock-ended-time = { $who }の時間切れ
clock-ended-resigned = { $who }が投了しました
clock-ended-gone = { $who }がゲームを離れました
clock-ended-aborted = ゲームは中止されました（結果なし）
clock-zombie = これからは{ $who }の席をボットが指します
clock-undo = 待った
clock-ask-undo = 待ったをお願いする
clock-accept = 受ける
clock-decline = 断る
clock-undo-asked = { $who }が{ $count }手の待ったをお願いしています。
clock-undo-declined = { $who }は待ったを断りました。
clock-undo-withdrawn = { $who }がゲームを離れたため、待ったのお願いは取り下げられました。
clock-took-back = { $who }が{ $count }手戻しました（{ $ply }手目から）
clock-your-turn = あなたの番
play-ended-why = { $why }: { $result }

## アカウント・名前・レーティング（accounts.js、players.js、サーバーの accounts、names、ratings）

error-name-blank = 名前を空にはできません
error-name-control = 名前に制御文字は使えません
error-name-invisible = 名前に見えない文字（方向制御文字、ゼロ幅スペース、結合子）は使えません
error-name-long = 名前は24文字までです
error-name-bot = その名前はボットのものです。人は使えません
error-name-account = その名前はアカウントのものです。使うにはログインしてください
error-name-taken = その名前は使われています。別の名前にしてください
error-password-short = パスワードは{ $count }文字以上にしてください
error-signin-failed = 名前かパスワードが違います
error-too-many-signins = ログインの試行が多すぎます。{ $wait }後にやり直してください
error-too-many-signups = このアドレスから作られたアカウントが多すぎます。しばらくしてからやり直してください
error-signed-out = ログインしていません
error-csrf = このリクエストはこのサイトのページから来ていません。ページを再読み込みしてやり直してください
error-no-player = そのプレイヤーはいません
error-rated-signed-out = レーティング対象のテーブルを作るにはログインしてください
error-rated-seed = レーティング対象のテーブルはサーバーが配ります。シード値は空にしてください
error-rated-clock = レーティング対象のテーブルには持ち時間が必要です
error-rated-seats = レーティング対象のテーブルでは、あなたの席のほかは招待した人（またはボット）の席にしてください
error-rated-claim-signed-out = レーティング対象のテーブルです。席に着くにはログインしてください
error-rated-reissue = レーティング対象のテーブルでは、席はログインすれば取り戻せます。ほかの人に渡すことはできません
error-rated-twice = このレーティング対象のテーブルにはすでにあなたの席があります
account-sign-in = ログイン
account-sign-up = アカウントを作る
account-sign-out = ログアウト
account-name = 名前
account-password = パスワード
account-heading = あなたのアカウント
account-link = アカウント
account-lead = ログインすると、対局とレーティングをどの端末でも続けられます。ゲストとしてもこれまでどおり遊べます。
account-signed-in = { $name }としてログイン中
account-new-here = はじめてですか？
account-moved = このブラウザーの対局{ $count }件をアカウントに移しました。
account-your-games = あなたの対局
account-no-games = まだ対局はありません。
account-game-line = { $game } · 席{ $seat }
account-rated = レーティング対象
account-playing = 対局中
account-finished = 終局
account-open = 開く
account-player-page = あなたのページ
start-rated = レーティング対象の対局
start-rated-help = ログインと持ち時間が必要で、シード値は指定できません。手は戻せません。
leaderboard-title = ランキング
leaderboard-heading = { $game }のランキング
leaderboard-empty = まだレーティング対象の対局はありません。
leaderboard-place = 順位
leaderboard-player = プレイヤー
leaderboard-rating = レーティング
leaderboard-games = 対局数
leaderboard-provisional = 暫定: レーティング対象の対局が{ $count }局未満
leaderboard-bot = ボット
leaderboard-pool = { $pool }版
player-title = { $name }
player-ratings = レーティング
player-no-ratings = まだレーティング対象の対局はありません。
player-history = レーティングの推移
player-games = 対局
player-won = 勝ち
player-lost = 負け
player-in-play = 対局中
player-chart = { $game }: レーティング対象の対局ごとのレーティング
player-none = そのプレイヤーはいません。
# -- ロビーとチャット（issue #25）：参加者募集中のテーブル、クイック対戦、テーブルのチャット、選ばれた配り方 --
error-not-public = このテーブルは公開されていません。招待リンクからのみ席に着けます
error-table-full = このテーブルの席はすべて埋まっています
error-only-host-chat = 観戦者チャットを開閉できるのはこのゲームのホストだけです
start-public = このテーブルをロビーに公開する
start-public-help = 友だちのために空けた席に、だれでもワンクリックで着けます。ゲームは進行中のゲームの一覧にも表示されます。チェックしなければ非公開のテーブルになり、あなたの招待リンクからしか入れません。
lobby-title = だれかと遊ぶ
lobby-heading = 参加者募集中のテーブル
lobby-lead = プレイヤーを待っている公開テーブルです。空いている席にワンクリックで着けます。
lobby-none = いまプレイヤーを待っているテーブルはありません。クイック対戦で開くか、下で公開テーブルを作ってください。
lobby-loading = 参加者募集中のテーブルを探しています…
lobby-offline = 一覧の自動更新が止まっています。再接続しています…
lobby-free = 空席 { $free } / { $players }
lobby-host = ホスト: { $name }
lobby-host-rating = { $name }（{ $rating }）
lobby-rated = レーティング対象
lobby-unrated = レーティング対象外
lobby-untimed = 持ち時間なし
lobby-join = 参加する
lobby-open-yours = 自分のテーブルへ
lobby-bots = ボット{ $count }体
lobby-deal-picked = ホストが配り方を選んだゲーム
lobby-name = テーブルで使う名前
lobby-name-placeholder = ほかのプレイヤーに見える名前（任意）
quick-heading = クイック対戦
quick-lead = ゲーム、人数、持ち時間を選んでください。同じ条件で待っているテーブルがあればその席に着き、なければ一覧に載る新しいテーブルを開きます。
quick-game = ゲーム
quick-players = 人数
quick-clock = 持ち時間
quick-untimed = 持ち時間なし
quick-button = 対戦相手を探す
chat-players = プレイヤーのチャット
chat-spectators = 観戦者のチャット
chat-placeholder = メッセージを入力…
chat-send = 送信
chat-mute = ミュート
chat-unmute = { $name }のミュートを解除
chat-muted = この画面でミュート中:
chat-mute-title = { $name }の発言をこの画面で表示しない
chat-closed = ホストが観戦者チャットを閉じました。
chat-close-spectators = 観戦者チャットを閉じる
chat-open-spectators = 観戦者チャットを開く
chat-empty = まだメッセージはありません。
chat-spectator = 観戦者
chat-too-long = 1回に送れるのは{ $count }文字までです。
chat-system-joined = { $who }が席に着きました。
chat-system-time = { $who }の持ち時間が切れました。
chat-system-resigned = { $who }が投了しました。
chat-system-gone = { $who }がゲームを離れました。
chat-system-aborted = ゲームは中止されました。
chat-system-zombie = これからは{ $who }の代わりにボットが指します。
chat-system-takeback = { $who }が{ $count }手戻しました。
chat-system-closed = ホストが観戦者チャットを閉じました。
chat-system-opened = ホストが観戦者チャットを開きました。
chat-system-left = { $who }がテーブルを離れました。
chat-system-back = { $who }が戻ってきました。
refusal-chat = 送信できませんでした。少し待ってから送り直してください。
refusal-chat-slow = 発言のペースが速すぎます。少し待ってください。
refusal-chat-closed = ホストが観戦者チャットを閉じました。
deal-picked = このゲームの配り方はホストが選んだものです。ホストはあなたの手持ちも含め、すべての手持ちを知っている可能性があります。信頼できる相手とだけ遊んでください。このゲームはレーティングの対象になりません。
## words
# 手の記録と直前の手（サーバーの games/<game>/web.py `described`、CUBES は
# games/cubes/outcome.py `described`）。席（$who、$to）の名前はページが入れる。
# $who-you / $to-you はその席が読み手自身なら "yes"。$who-count は $who が指す席の数。

words-seat = { $who-you ->
    [yes] あなた
   *[other] { $who }
  }
words-cubed-a-piece = { $first ->
   *[other] { $count ->
        [1] { $c1 }一色のピース
        [2] { $c1 }と{ $c2 }のピース
       *[other] { $c1 }・{ $c2 }・{ $c3 }のピース
    }
  }
words-cubed-the-piece = { $count ->
    [1] { $c1 }一色のピース
    [2] { $c1 }と{ $c2 }のピース
   *[other] { $c1 }・{ $c2 }・{ $c3 }のピース
  }
words-cubed-laid = { $who }が{ $piece }を{ $where }に置きました。
words-cubed-laid-middle = { $who }が{ $piece }を{ $where }に置きました。
words-cubed-drew = { $who }がピースを1個引きました。
words-cubed-passed = { $who }はパスしました。
words-cubed-drew-many = { $who }がピースを{ $count }個引きました。1個だけ手元に残します。
words-cubed-kept = { $who }は{ $piece }を残しました。
words-cubed-kept-secret = { $who }は引いたピースのうち1個を残しました。
words-cubed-gave = { $who }が{ $piece }を{ $to-you ->
    [yes] あなた
   *[other] { $to }
  }に渡しました。
words-cubed-gave-secret = { $who }がピースを1個{ $to-you ->
    [yes] あなた
   *[other] { $to }
  }に渡しました。
words-cubed-skipped = { $who }は何も渡しませんでした。
words-unst-stacked = { $who }が{ $place }に{ $colour }のキューブを積みました。
words-unst-stacked-first = { $who }が{ $place }に{ $colour }のキューブを積みました（列は左から右へA〜G、行は手前から奥へ1〜7）。
words-unst-ended = { $who }が手番を終えました。
words-unst-took = { $who }が{ $place }からキューブを取り出しました。
words-stakd-laid = { $z ->
    [0] { $who }がいちばん下の層に { $piece } を置きました。
   *[other] { $who }が層{ $z }に { $piece } を置きました。
  }
words-cubes-rolled = { $who }がサイコロを振りました。
words-cubes-rolled-faces = { $who }がサイコロを振りました（{ $faces }）。
words-cubes-row-numbers = 数字だけ
words-cubes-row-cubes-few = CUBES と数字1〜2個
words-cubes-row-cubes-many = CUBES と数字3個以上
words-cubes-row-cubes-only = CUBES だけ
words-cubes-row-blank = すべて空白
words-cubes-head-sum = { $row }（{ $sum }）
words-cubes-roll-one = { $head }: { $first }。
words-cubes-roll-two = { $head }: { $first }。続いて{ $then }。
words-cubes-paid = { $who-count ->
    [one] { words-seat }が{ $chips }点払います
   *[other] { words-seat }がそれぞれ{ $chips }点払います
  }
words-cubes-each-pays = ほかの全員が{ $chips }点ずつ払います
words-cubes-takes = { words-seat }が{ $claim }点を取ります
words-cubes-whole-pot = { words-seat }がポットをすべて取ります（{ $chips }点）
words-cubes-pays = { words-seat }が{ $chips }点払います
words-cubes-owes-broke = { words-seat }は{ $owed }点払うはずが{ $left }点しかないので、それをすべて入れて、このセットは0点になります
words-cubes-short = { $pot ->
    [0] ポットが空なので
   *[other] ポットには{ $pot }点しかないので
  }、{ words-seat }が{ $short }点払って{ $claim }点にします
words-cubes-short-broke = { $pot ->
    [0] ポットが空なので
   *[other] ポットには{ $pot }点しかないので
  }、{ words-seat }は{ $short }点払うはずが{ $left }点しかなく、それをすべて入れて、このセットは0点になります

## words: 受け付けられなかった手 (static/refusals.js)。サーバー自身の理由（refusal-CODE）と
## 各ゲームのルール上の理由（refusal-GAME-CODE、理由のパラメーター付き。色はページの言語の名前）

refusal-unknown-move = このゲームにない手です。書き方は「記法で見る手」を見てください。
refusal-not-allowed = ルール上、ここではその手は指せません。
refusal-not-taken = サーバーがこの操作を受け付けられませんでした。繰り返し起きるときはページを再読み込みしてください。
refusal-auth = このページはすでに名乗っています。ページを再読み込みしてください。
refusal-bot = ボットが手を指せなかったため、いまはゲームを続けられません。
refusal-turn = まだあなたの番ではありません。
refusal-stale = あなたの手が届く前にゲームが進みました。盤面を確かめて、もう一度どうぞ。
refusal-over = このゲームは終了しています。
refusal-bot-seat = この席はボットが指しています。
refusal-spectator = このゲームを観戦中です。遊ぶには自分の席のリンクから開いてください。
refusal-storage = 手を保存できませんでした。ページを再読み込みしてやり直してください。
refusal-slow-down = 一度に送られた手が多すぎます。少し待ってからやり直してください。
refusal-abandoned = このゲームは長いあいだだれも手を指さなかったため、放棄されました。
refusal-reissued = ホストがこの席に新しい招待を出しました。このページではもうこの席で遊べません。
closed-no-game = そのゲームはありません。リンクを確かめてください。
closed-no-seat = このリンクでは、このゲームの席をもう開けません（ホストがこの席に新しい招待を出したのかもしれません）。
closed-no-auth = ページが時間内にサーバーへ名乗れませんでした。ページを再読み込みしてください。
closed-broken = このゲームは壊れているため開けません。詳しくはサーバーの管理者に尋ねてください。
closed-other = サーバーが接続を閉じました（コード { $code }）。ページを再読み込みしてください。
refusal-late = この手が届く前に持ち時間が切れたため、手は指されませんでした。
refusal-paused = 全員がこのラウンドの結果を見終わると、次のラウンドが始まります。
refusal-abort-late = 全員がすでに手を指したので、もう中止できません。
refusal-claim-none = いまは申し出られることがありません。申し出ができるのは、リアルタイムの対局で自分の番に席を離れているプレイヤーがいるときだけです。
refusal-claim-early = そのプレイヤーはまだ戻ってくるかもしれません。猶予時間が過ぎてから申し出てください。
refusal-undo-none = 戻せる手がありません。
refusal-undo-passed = 手番がほかのプレイヤーに移りました。待ったを受けてもらうようお願いしてください。
refusal-undo-chance = その手のあとにピースを引いたりサイコロを振ったりしたので、もう戻せません。
refusal-undo-rated = レーティング対象の対局では手を戻せません。
refusal-undo-many = この対局では、これ以上手を戻せません（待ったの回数の上限に達しました）。
refusal-undo-hidden = その手のあとにボットが手持ちのピースを見せたので、もう戻せません。
refusal-another-colour = ほかの色
refusal-cubed-refused = そのピースはそこに置けません。
refusal-cubed-occupied = そのマスにはもうピースがあります。
refusal-cubed-blocking-early = 黒い辺のあるピースは、テーブルにピースが3個並んでからでないと置けません。
refusal-cubed-blocking-mismatch = 黒い辺のあるピースは色がぴったり合わなければなりませんが、ここではこのピースの{ $mine }の辺が{ $theirs }と接します。
refusal-cubed-dead-cell = 黒い辺はどれとも接してはいけませんが、ここでは接してしまいます。
refusal-cubed-black-contact = 黒い辺はどれとも接してはいけませんが、ここでは接してしまいます。
refusal-cubed-first-at-origin = 最初のピースはテーブルの中央に置きます。
refusal-cubed-reach = テーブルの中央から遠すぎます。
refusal-cubed-no-touch-first = テーブルにあるピースに接するように置いてください。
refusal-cubed-too-few-touches = 3個目からは、少なくとも2つのピースに接するように置きます。
refusal-cubed-mismatch = 色が合いません。このピースの{ $slot ->
    [top] 上
    [left] 左
   *[right] 右
  }は{ $mine }ですが、となりのピースは{ $theirs }です。
refusal-cubed-too-few-matches = 色が合いません。接する辺どうしは同じ色でなければなりません。
refusal-cubed-flipped = ピースは回せますが、裏返すことはできません。
refusal-cubed-not-in-hand = そのピースは手持ちにありません。
refusal-cubed-not-drawn = いま引いたピースから1個を選んで残してください。
refusal-cubed-keep-first = 先に、引いたピースのどれを残すか選んでください。
refusal-cubed-give-first = 空白を埋めました。ほかのプレイヤーにピースを1個渡すか、渡さないかを選んでください。
refusal-cubed-bridge-first = ギャップを埋めました。もう1個置くか、パスしてください。
refusal-cubed-drawn-already = この手番ではもう引いています。ピースを置くかパスしてください。
refusal-cubed-bag-empty = バッグは空です。もう引けるピースはありません。
refusal-cubed-bag-short = バッグにはそんなに多くのピースが残っていません。
refusal-cubed-draw3-count = 引けるのは1〜3個です。
refusal-cubed-pass-before-draw = 先にピースを引いてください。パスできるのは引いたあとか、バッグが空のときだけです。
refusal-cubed-solo-draw = ソロでは、置けるピースがないときだけ引けます。
refusal-cubed-solo-no-pass = ソロではパスできません。
refusal-cubed-give-self = 自分にピースを渡すことはできません。
refusal-cubed-no-seat = そのプレイヤーはいません。
refusal-cubed-no-draw3 = このゲームでは「ドロー3、キープ1」のバリエーションを使いません。
refusal-cubed-unknown-colours = この版には、その色の組み合わせのピースはありません。
refusal-cubed-nothing-now = いまはそれはできません。
refusal-unstackable-occupied = そこにはもうキューブがあります。
refusal-unstackable-float = そのキューブを支えるものがありません。真下にキューブが必要です。
refusal-unstackable-not-next = 袋の上では、新しいキューブはすでにあるキューブのとなりに置きます。
refusal-unstackable-under-bag = 袋の下には何も置けません。
refusal-unstackable-first-in-corner = 最初のキューブは袋の隅に置きます。
refusal-unstackable-too-big = 立方体は幅・奥行き・高さとも4を超えられません。
refusal-unstackable-outside = そこは立方体の外です。
refusal-unstackable-none-left = { $colour }のキューブはもう残っていません。
refusal-unstackable-turn-colour = この手番は{ $colour }です。{ $colour }のキューブをあと{ $left }個積んでください。
refusal-unstackable-exact-count = { $colour }の手番ではキューブをちょうど{ $count }個積みます。続けてください。
refusal-unstackable-end-empty = 手番を終える前に、キューブを少なくとも1個積んでください。
refusal-unstackable-built = 立方体はできあがりました。今度はキューブを取り出します。
refusal-unstackable-building = 立方体はまだ組み上げ中です。キューブを積んでください。
refusal-unstackable-empty = そこには取り出せるキューブがありません。
refusal-unstackable-holds-up = そのキューブは上のキューブを支えているので、抜けません。
refusal-unstackable-buried = そのキューブは埋もれすぎています。取り出せるのは3面以上が露出しているキューブだけです。
refusal-stakd-occupied = その場所はふさがっています。
refusal-stakd-overhang = ピースは全体が下の層のピースの上に載らなければなりません。
refusal-stakd-bombed = BLUE BOMBER でふたをされたピースの上には、もう何も置けません。
refusal-stakd-carries = 下のピースはすでに { $piece } を載せています。
refusal-stakd-identical = 下のピースとまったく同じ場所を覆うようには置けません。
refusal-stakd-one-bomber = この層にはもう BLUE BOMBER があります。1つの層に1個までです。
refusal-stakd-alone = 同じ層のほかのピースに、辺で接するように置いてください。
refusal-stakd-none-left = { $piece } はもう残っていません。
refusal-stakd-base-touch = BASE は、すでに置かれた BASE に少なくとも2か所で接しなければなりません。
refusal-stakd-bases-first = 先に BASE をすべて置いてください。
refusal-stakd-bases-low = BASE はいちばん下の層に置き、そこには BASE しか置けません。
refusal-stakd-first-base = 最初の BASE は中央の場所に置きます。
refusal-stakd-closed = その層は閉じています。上の層が始まっています。
refusal-stakd-skip-layer = 層は下から順に積み上げます。
refusal-stakd-too-early = 次の層はまだ始められません。先に下の層にもっとピースが必要です。
refusal-stakd-bomber-opens = 新しい層を BLUE BOMBER で始めることはできません。
refusal-stakd-uni-opens = 新しい層を UNI で始められるのは、ほかに始められるピースを持っていないときだけです。
refusal-stakd-shape = そのピースはその形をしていません。
refusal-stakd-reach = テーブルの中央から遠すぎます。
refusal-cubes-not-refereed = サイコロはサーバーが振ります。「サイコロを振る」を押してください。
refusal-cubes-face-count = このサイコロでは出ない目です。
refusal-cubes-no-face = このサイコロでは出ない目です。
refusal-cubes-only-roll = できるのはサイコロを振ることだけです。

## words: リクエストの誤り（設定、ボット、持ち時間）。エンジンのコード（core.phrase.Worded）から訳す

error-plugin = { $error }
error-plugin-bad-id = ゲームID { $game }（{ $entry }）は小文字の英単語（[a-z][a-z0-9_]*、32文字まで）ではないため、外しました
error-plugin-twice = ゲーム「{ $game }」が2回登録されています（{ $first } と { $second }）。{ $first } を使います
error-plugin-unloadable = ゲーム「{ $game }」（{ $entry }）を読み込めません: { $error }
error-plugin-not-game = ゲーム「{ $game }」（{ $entry }）は cubegames の Game クラスではありません
error-plugin-no-facts = ゲーム「{ $game }」（{ $entry }）はゲームの情報（GameInfo）を宣言しておらず、クラスから組み立てることもできません: { $error }
error-plugin-other-id = ゲーム「{ $game }」（{ $entry }）は自分を { $other } と名乗っており、「{ $game }」ではありません
error-plugin-openspiel-name = ゲーム「{ $game }」: 設定「{ $option }」がアダプター自身の OpenSpiel パラメーターと同じ名前なので、OpenSpiel には登録しません
error-option-unknown = { $game }には「{ $option }」という設定はありません。設定できるのは { $options } です
error-option-whole = 「{ $option }」は整数で指定してください
error-option-exactly = 「{ $option }」は{ $value }にしてください
error-option-range = 「{ $option }」は{ $low }から{ $high }までで指定してください
error-option-bool = 「{ $option }」はオンかオフで指定してください
error-option-choice = 「{ $option }」は次から選んでください: { $choices }
error-option-list = 「{ $option }」は次の名前のリストで指定してください: { $choices }
error-bot-unknown = 「{ $bot }」というボットはありません。選べるのは { $bots } です
error-bot-game = ボット「{ $bot }」が遊べるのは { $games } だけで、{ $game } は遊べません
error-bot-game-only = ボット「{ $bot }」は { $game } を遊べません
error-bot-seed = ボット「{ $bot }」: ボットのシード値はサーバーが決めます。seed は指定しないでください
error-bot-finite = ボット「{ $bot }」: { $key } は有限の数で指定してください
error-bot-bound = ボット「{ $bot }」: このサーバーでは { $key } は{ $high }までです
error-bot-settings = ボット「{ $bot }」の設定が正しくありません（{ $reason }）
error-seat-bot = 席{ $seat }: { $reason }
error-clock-number = 持ち時間（{ $field }）は数で指定してください（指定: { $got }）
error-clock-finite = 持ち時間（{ $field }）は有限の数で指定してください（指定: { $got }）
error-clock-negative = 持ち時間（{ $field }）に負の数は使えません（指定: { $got }）
error-clock-object = 持ち時間（{ $field }）の指定の形が正しくありません。種類とプリセットなどを持つオブジェクトで指定してください
error-clock-kind = 持ち時間の種類（{ $field }）は none、realtime、turn のどれかです（指定: { $got }）
error-clock-setting = 持ち時間（{ $field }）: 「{ $kind }」の持ち時間にはない設定です
error-clock-days = 持ち時間（{ $field }）: ターン制の1手の日数は1日、3日、7日のどれかです（指定: { $got }）
error-clock-both = 持ち時間（{ $field }）: プリセットか、分数と加算秒数か、どちらか一方だけを指定してください
error-clock-preset = 持ち時間のプリセット（{ $field }）は次のどれかです: { $presets }（指定: { $got }）
error-clock-minutes-missing = 持ち時間（{ $field }）: リアルタイムの持ち時間には分数（またはプリセット）が必要です
error-clock-min-minutes = 持ち時間（{ $field }）: { $low }分（15秒）以上にしてください。それより短いと指す時間がありません（指定: { $got }）
error-clock-max-minutes = 持ち時間（{ $field }）: このサーバーでは{ $high }分までです（指定: { $got }）
error-clock-max-increment = 持ち時間（{ $field }）: このサーバーでは1手ごとの加算は{ $high }秒までです（指定: { $got }）
## tutorials（tutorial.js、server/tutorials.py）: 遊びながら覚える最初のゲーム。1ステップ1文。
## { $name } はページが呼ぶ相手の名前
tutorial-start-heading = 遊びながら覚える
tutorial-start-lead = 短いガイド付きのゲームで、ルールを必要になったその場で説明します。そのあとはランダムボットと続きを遊べます。
tutorial-start-button = { $game }を覚える
tutorial-making = 最初のゲームを用意しています…
tutorial-failed = チュートリアルを始められませんでした: { $reason }
tutorial-heading = チュートリアル
tutorial-step-of = { $steps }ステップ中{ $step }
tutorial-wrong = 今回はそれではありません。{ $why }
tutorial-turn = 場所は合っています！「{ $button }」を{ $turns }回押してから、ここに置いてください。
tutorial-done = お見事です。これでルールはばっちりです。
tutorial-own-game = 自分のゲームを始めましょう。
tutorial-cubed-intro = CUBED では、三色のピースを接する辺の色がそろうように置いていきます。先に手持ちをなくした人がラウンドの勝ちです。
tutorial-cubed-first = 最初のピースはテーブルの真ん中に置きます。光っている手持ちのピースを選び、光っているマスに置いてください。
tutorial-cubed-second = { $name }が2つ目のピースを置きます。2つ目は1つのピースに接するだけでよく、接する辺は同じ色でなければなりません。
tutorial-cubed-two = 3つ目のピースからは少なくとも2つのピースに接し、接する辺がすべて同じ色でなければなりません。光っているピースを、両方に接するマスに置いてください。
tutorial-cubed-they-match = { $name }は2つのピースに接し、接する辺がすべてそろうピースを置きました。
tutorial-cubed-draw = ピースを置く代わりに、1手番に1回だけバッグからピースを引けます。光っているボタンを押してください。
tutorial-cubed-drawn = 引いたあとは、ピースを置くかパスできます。いま引いたピースは光っているマスに合います。
tutorial-cubed-they-lay = { $name }がもう1つピースを置きました。テーブルのピースが増えるほど、置ける場所も増えます。
tutorial-cubed-blocking = これはブロッキングピースです。色の部分は2つのピースにそろえる必要があり、黒い辺にはもう何も接することができないので、そのとなりのマスはずっとふさがります。
tutorial-cubed-free = ルールはこれで全部です。ランダムボットを相手にラウンドを最後まで遊び、先に手持ちをなくしましょう。
tutorial-unstackable-intro = Unstackable には2つの段階があります。ふたりで4×4×4の立方体を組み上げ、それを崩しながら得点します。最初のキューブはもう積んであります。
tutorial-unstackable-yellow = 第1段階: 1手番に黒なら3個、赤なら2個、黄色なら1個積みます。黄色を選び、光っている場所に1個置いてください。
tutorial-unstackable-their-red = { $name }は赤を選んだので、赤いキューブを1個ずつ2個積みます。
tutorial-unstackable-red = 今度は赤を選んで2個積みましょう。キューブはほかのキューブのとなりの床か、キューブの上に置けます。
tutorial-unstackable-last-red = これが最後の赤です。最後の赤を積んだ人は、立方体を崩すときに後手になります。
tutorial-unstackable-stage-two = 黒しか残っていないので、残りは黒で埋まり、第2段階が始まります。{ $name }がキューブを2個取ります。
tutorial-unstackable-uncovered = { $name }は、あなたの黄色の上に載っていたキューブを取りました。
tutorial-unstackable-pile-one = 上に何も載っておらず、3面以上が露出しているキューブは取れます。手番の1個目は山1に入り、黄色は5点です。
tutorial-unstackable-pile-two = 2個目は山2に入り、山2で点になるのは黒だけ（1点）です。光っている黒いキューブを取ってください。
tutorial-unstackable-free = 立方体の残りをランダムボットと崩していきましょう。得点の多い人の勝ちです。
tutorial-stakd-intro = STAKD では層を1つずつ積み上げます。BLUE BOMBER 以外で最後のピースを置いた人がラウンドの勝ちです。
tutorial-stakd-base = 層0は BASE でできています。BASE を選び、光っている場所に置いてください。
tutorial-stakd-their-base = { $name }が、もう置かれている BASE に接するように BASE を置きました。2つ目からの BASE はすべてそうします。
tutorial-stakd-base-two = 2つ目の BASE を光っている場所に置いてください。
tutorial-stakd-layer = ここから層1です。ピースのどのノードも下のピースに載っていなければなりません。DUO を光っている場所に置いてください。
tutorial-stakd-connect = { $name }は、この層のピースに接するように TRIO を置きました。層の2つ目からのピースはすべてそうします。
tutorial-stakd-uni = UNI は1ノードのピースです。小さなすき間に置けますが、新しい層を UNI で始めることはできません。光っている場所に置いてください。
tutorial-stakd-their-duo = { $name }は自分の BASE に DUO を置きました。1つのピースには同じ種類のピースを1つしか載せられません。
tutorial-stakd-bomber = BLUE BOMBER はその下のピースを終わらせ、その BASE にはもう何も置けなくなります。光っている場所に置いてください。
tutorial-stakd-free = ランダムボットを相手にラウンドを最後まで遊びましょう。層1にピースが6つそろうと層2を始められます。
tutorial-cubes-intro = CUBES ではサイコロを振るだけです。真ん中のチップがポットで、出た目でだれが払い、だれが取るかが決まります。
tutorial-cubes-numbers = サイコロを振りましょう。数字だけが出たら、その合計をポットから取ります。
tutorial-cubes-word = { $name }は CUBES の面と数字1〜2個を出しました。ほかの全員が5点ずつ払い、そのあと合計の2倍を取ります。
tutorial-cubes-pot = もう一度振りましょう。CUBES の面と数字3個以上で、ポットをすべて取れます。
tutorial-cubes-free = ランダムボットを相手に続けましょう。払うべき点を払いきれなかった人がセットを終わらせ、そのセットは0点になります。
error-no-tutorial = { $game }にはチュートリアルがありません
error-tutorial-not-host = チュートリアルの席をボットに渡せるのはホストだけです
error-not-a-tutorial = このゲームは{ $game }のチュートリアルではありません
error-tutorial-not-done = ガイド付きの手がまだ終わっていません（あと{ $moves }手）
error-tutorial-over = このゲームはもう終わっています
## table（担当 table：ホットシートの呼び名、残り時間の音、手番の通知）

seat-you-numbered = あなた・プレイヤー{ $number }
sound-low = 小さな2回のチクタク（持ち時間が残りわずか）
play-notify-ask = 手番を通知する
play-notify-on = 手番の通知: オン
play-notify-blocked = ブラウザーが通知をブロックしています
play-notify-title = このタブが隠れている間に手番が来たら、ブラウザーの通知でお知らせします
notify-your-turn = { $game }: あなたの番です
notify-body = { $ply }手目はあなたの番です。
error-record-too-large = ファイルが大きすぎます（{ $bytes }バイト。{ $most }バイトまで）
error-record-too-deep = このファイルは入れ子が深すぎます（{ $levels }段まで）
error-record-not-json = { $line ->
    [0] JSONとして読めません
   *[other] JSONとして読めません（{ $line }行{ $column }列）
  }
error-record-long-number = このファイルには長すぎて読めない数が含まれています
error-record-not-record = これはゲームの記録ではありません（"format": "{ $format }" がありません）
error-record-field = 記録の「{ $field }」が正しくありません
error-record-options = 記録の設定が使えません: { $reason }
error-record-seats = 記録が正しくありません。この { $game } のゲームの席は{ $seats }つですが、記録には{ $listed }人分あります
error-record-bot-name = 記録の席{ $seat }はボットの席ですが、ボットの名前がありません
error-record-seat-bot = 記録の席{ $seat }: { $reason }
error-record-move-over = { $number }手目（{ $move }）: ゲームはすでに終わっています

## -- the lobby, the chat and names (branch lobby, issue #25) --
error-name-mixed = 名前に、見た目の似た別の文字体系（ラテン文字の中のキリル文字など）を混ぜることはできません。ひとつの文字体系で書いてください
error-name-confusable = その名前はほかのプレイヤーの名前とよく似ています。別の名前にしてください
refusal-chat-blank = 空のメッセージは送れません。何か書いてから送ってください。
refusal-chat-long = メッセージが長すぎます。短くしてから送り直してください。
refusal-chat-hidden = メッセージに見えない文字か制御文字が含まれています。取り除いてから送り直してください。
chat-spectator-tag = 観戦者 { $tag }
error-record-move-refused = { $number }手目（{ $move }）はルール上指せない手です: { $reason }

## words: 端末（cubegames play、render/terminal）。入力するコマンド（?、help、quit、roll）、
## 手の記法、指定されたボット名は訳さない

term-start = { $game } · help と入力するとヘルプを表示します
term-seed = この配り方のシード値は { $seed } でした。--seed { $seed } を付けると、同じ配り方でもう一度遊べます。
term-help = 手を記法で入力するか、一覧の番号を入力してください。
term-help-list = 合法手の一覧を表示する
term-help-help = この説明を表示する
term-help-quit = ゲームをやめる
term-hand-over = { $who }の番です。ほかの人は画面を見ないでください。準備ができたらエンターキーを押してください。
term-game-left = ゲームを途中で終えました。
term-many-moves = 合法手は{ $count }通りあります。? と入力すると一覧を表示します。
term-prompt = { $who }の手>
term-no-such-move = { $index }番の手はありません。1〜{ $count }の番号を選んでください。
term-not-allowed = 指せません: { $reason }
term-unknown-move = このゲームにない手です。? と入力すると合法手の一覧を表示します。
term-plays = { $who }の手: { $move }
term-bot-plays = { $who }（{ $bot }）の手: { $move }
term-score = { $who } { $points }点
term-game-over = ゲーム終了。得点: { $scores }
term-nobody-won = 勝者はいません。
term-winners = { $count ->
   *[other] 勝者: { $names }
  }
term-moves = 合法手: { $moves }
term-col-seat = 席
term-col-pieces = ピース数
term-col-total = 合計
term-col-in-hand = 手持ちの点
term-col-points = 得点
term-col-set = 第{ $set }セット
term-col-pile = 山{ $pile }
term-you-mark = （あなた）
term-cubed-variants = バリエーション: { $variants }
term-cubed-hand = あなたの手持ち（{ $pieces }個）:
term-cubed-keep-one = ドロー3で引いたピースから1つを残す:
term-cubed-past = 第{ $round }ラウンド: { $scores }（{ $end }）
term-cubed-end-emptied = 手持ちを出し切った
term-cubed-end-blocked = 置けるマスがなくなった
term-cubed-end-stalled = だれもピースを置けなかった
term-cubed-end-standstill = バッグが空になり、一巡してだれも置けなかった
term-cubed-end-stuck = 2回引いても置けるピースがなかった
term-cubed-end-bag_empty = 引く番なのにバッグが空だった
term-cubed-solo-ended = ソロゲーム終了: { $end }。
term-cubes-set = 第{ $set }セット（全{ $sets }セット）
term-cubes-in-play = 箱の{ $box }点のうち{ $points }点が場にあります
term-cubes-no-roll = まだだれもサイコロを振っていません。
term-cubes-rolled = { $who }の出目  { $faces }
term-cubes-set-over = 第{ $set }セット終了。得点: { $scores }。
term-cubes-won = ゲーム終了: { $who }が{ $points }点で勝ちました。
term-cubes-your-roll = あなたが振る番です。roll と入力してください。
term-cubes-your-roll-referee = あなたが振る番です。roll と入力するか、実物のサイコロの目を入力してください（例: roll 1 C . 6 . 3）。
term-stakd-empty = （まだ何も置かれていません）
term-stakd-layer = 層{ $z }
term-stakd-pieces = { $pieces }個
term-stakd-closed = 完成
term-stakd-new = 新しい層
term-stakd-bombed = BOMBER 使用済み
term-stakd-solo = ソロ: { $pieces }個すべて置けば勝ち
term-stakd-race = 第{ $round }ラウンド · 先に{ $points }点取った人の勝ち
term-stakd-current = いまの層 { $z }
term-stakd-legend = × 終わったピース   + あなたが置ける場所
term-stakd-round-won = 第{ $round }ラウンド: { $who }
term-stakd-won-so-far = これまでの勝者: { $rounds }
term-unst-bag = z=0（袋）
term-unst-choose = { $who }が色を選んで積む番
term-unst-stacking = { $exact ->
    [yes] { $who }が{ $colour }を積んでいます（{ $per }個中{ $placed }個）
   *[other] { $who }が{ $colour }を積んでいます（最大{ $per }個中{ $placed }個）
  }
term-unst-remove = { $who }が山{ $pile }に取るキューブを選ぶ番
term-unst-stage-stack = 第1段階: 積む
term-unst-stage-unstack = 第2段階: 取り出す
term-unst-bag-exposed = 袋に接する面も露出面に数える
term-unst-fewer = 1手番に置く数は少なくてもよい（end で終える）
term-unst-supply = 残りのキューブ:
term-unst-last-red = （最後の赤）
term-error-seat = --seat { $seat }: このゲームの席は0〜{ $last }です
term-error-bots = --bot: ボットが{ $bots }つ指定されていますが、{ $seats ->
    [0] ボットが座る席はありません
   *[other] ボットが座る席は{ $seats }つです
  }

## words: ゲームの設定どうしの組み合わせ、ボット自身の設定への指摘、API のモデルが受け付けない
## リクエスト、結果が手順と合わない記録（エンジニア "words"）

edition-cubed-en = 英語版
edition-cubed-ja = 日本語版
edition-stakd-standard = 標準版
edition-cubes-standard = 標準版
error-edition-unknown = 「{ $edition }」という版はありません。選べるのは { $editions } です。.toml ファイルも指定できます
error-edition-unreadable = { $reason ->
   *[other] 版のファイル { $file } を読めません
  }
error-edition-too-large = { $file }: 大きすぎて読めません（{ $bytes }バイトまで）
error-edition-not-text = { $file }: テキストファイルではありません
error-players-edition = { $edition }で遊べるのは{ $low }〜{ $high }人です（指定: { $players }人）
error-players-range = { $game }は{ $low }〜{ $high }人で遊ぶゲームです（指定: { $players }人）
error-players-exactly = { $game }はちょうど{ $count }人で遊ぶゲームです（指定: { $players }人）
error-variant-twice = 同じバリエーションが2回指定されています
error-variant-solo = 「{ $variant }」はほかのプレイヤーがいるときのバリエーションなので、ソロでは使えません
error-solo-rounds = ソロは1ゲームだけです。ラウンド数は1にしてください
error-solo-points = ソロは1ラウンドだけです。勝利に必要な得点は1にしてください
error-bot-no-param = ボット「{ $bot }」には「{ $key }」という設定はありません
error-bot-whole = { $bot ->
   *[other] { $key } は{ $low }から{ $high }までの整数で指定してください
  }
error-bot-number = { $bot ->
   *[other] { $above ->
        [yes] { $key } は{ $low }より大きく{ $high }以下の数で指定してください
       *[other] { $key } は{ $low }以上{ $high }以下の数で指定してください
    }
  }
error-bot-flag = { $bot ->
   *[other] { $key } は true か false で指定してください
  }
error-bot-budget-twice = { $bot ->
   *[other] iterations と seconds はどちらか一方だけを指定してください
  }
error-bot-twice = ボット「{ $bot }」: { $key } が2回指定されています。1回だけ指定してください
error-field-missing = 項目 { $field } がありません
error-field-extra = { $field } という項目はありません
error-field-choice = 項目 { $field } は次のどれかにしてください: { $expected }
error-field-long = 項目 { $field } は{ $max-length }文字までです
error-field-short = 項目 { $field } は{ $min-length }文字以上にしてください
error-field-many = 項目 { $field } は{ $max-length }個までです
error-field-few = 項目 { $field } は{ $min-length }個以上にしてください
error-field-at-least = 項目 { $field } は{ $ge }以上にしてください
error-field-above = 項目 { $field } は{ $gt }より大きくしてください
error-field-at-most = 項目 { $field } は{ $le }以下にしてください
error-field-below = 項目 { $field } は{ $lt }未満にしてください
error-field-kind = { $kind ->
    [whole] 項目 { $field } は整数にしてください
    [number] 項目 { $field } は数にしてください
    [bool] 項目 { $field } は true か false にしてください
    [text] 項目 { $field } は文字列にしてください
    [object] 項目 { $field } はオブジェクトにしてください
    [list] 項目 { $field } はリストにしてください
    [json] 送られた内容が JSON ではありません
   *[other] 項目 { $field } の値の種類が違います
  }
error-field-invalid = 項目 { $field } の値は受け付けられません
error-record-result = 記録が正しくありません。記録された結果が手順と合いません
error-unstorable-long = 項目 { $field } に保存できるのは{ $length }文字までです
error-unstorable-nul = 項目 { $field } には NUL 文字（\u0000）を保存できません
error-unstorable-surrogate = 項目 { $field } には対になっていないサロゲート文字を保存できません
error-record-unstorable = 記録が正しくありません: { $reason }
variant-cubed-bridging = ギャップを埋める
variant-cubed-void = 空白を埋める
variant-cubed-draw3 = ドロー3、キープ1
error-game-broken = ゲーム「{ $game }」は保存された手順から再現できなくなっています
error-option-text = 「{ $option }」は文字列で指定してください
error-option-a-list = 「{ $option }」はリストで指定してください
error-option-at-least = 「{ $option }」は{ $low }以上で指定してください
error-option-at-most = 「{ $option }」は{ $high }以下で指定してください
error-option-invalid = 「{ $option }」のこの値は受け付けられません
error-option-pair = --option { $pair }: key=value の形で書いてください
error-option-twice = --option { $option } が2回指定されています。1回だけ指定してください
error-players-twice = --players { $players } と --option players={ $option } が食い違っています。どちらか一方だけ指定してください
error-bot-pairs = ボット「{ $bot }」: 設定は key=value の形で書いてください

## words: プラグインのゲームの汎用テーブル（games/generic.js、render/web/generic.py）。ゲーム自身の
## 項目名、記法、言葉はそのゲームのもの

words-generic-played = { $who }の手: { $move }
words-generic-moved = { $who }が手を指しました。
generic-none = なし
generic-move-label = 記法で書いた手
generic-more = ほか{ $count }手: 入力してください
generic-example = 手の例: { $move }
generic-your-move = あなたの番です。手を選ぶか、入力してください。
generic-moves-next = 次は{ $name }の番です。
error-game-unknown = 「{ $game }」というゲームはありません。選べるのは { $games } です

## lab2: `cubegames odds`（ゲームの偶然の正確な確率、games/cubes/terminal.py）

term-odds-title = CUBES · 全{ $rolls }通りの出目での正確な確率（{ $edition }）
term-odds-caption = s: 出た数字の合計 · 平均取り分: その出目で振った人がポットから受け取る平均の量
term-odds-col-roll = 出目
term-odds-col-happens = どうなるか
term-odds-col-rolls = 通り
term-odds-col-probability = 確率
term-odds-col-claim = 平均取り分
term-odds-rule-numbers = 振った人が s 点を取る（ポットが足りなければ何も取らず、差額を払う）
term-odds-rule-cubes-few = ほかの全員が{ $opp }点ずつ払い、振った人は同じやり方で{ $mult }s 点を取る
term-odds-rule-cubes-many = ほかの全員が{ $opp }点ずつ払い、振った人はポットをすべて取る
term-odds-rule-cubes-only = ほかの全員が{ $opp }点ずつ払う
term-odds-rule-blank = 振った人が{ $blank }点払う
term-odds-none = { $game } には正確な確率の表がありません（表があるゲーム: { $games }）
## cli: the command line (engineer "words2"; cli.py, clickwords.py). click's own messages are
## cli-click-…: their $fields (name, value, message…) are click's, filled in by click, as it
## writes them (quoted: 'x'). The player commands' help is cli-help-COMMAND(-OPTION); what
## they print is cli-…. Option names, commands and notation are what is typed: untranslated.
cli-click-usage = 使い方:
cli-click-options = オプション
cli-click-commands = コマンド
cli-click-arguments = 引数
cli-click-help = この説明を表示して終わります。
cli-click-version-help = バージョンを表示して終わります。
cli-click-default = 既定: { $default }
cli-click-missing-command = コマンドを指定してください。
cli-click-no-such-command = { $name } というコマンドはありません。
cli-click-no-such-option = { $name } というオプションはありません。
cli-click-missing-argument = 次の引数を指定してください:
cli-click-missing-option = 次のオプションを指定してください:
cli-click-missing-parameter = 次の値を指定してください:
cli-click-invalid-for = { $param_hint } の値が正しくありません: { $message }
cli-click-invalid = 値が正しくありません: { $message }
cli-click-open-file = ファイル { $filename } を開けません: { $message }
cli-click-takes-no-value = オプション { $name } には値を付けません。
cli-click-argument-values = 引数 { $name } には値を{ $nargs }個指定してください。
cli-click-range = { $value } は範囲外です（{ $range }）。
cli-click-number = { $number_type ->
   *[other] {""}
  }{ $value } は数として読めません。
cli-click-boolean = { $value } は真偽値として読めません。使える値: { $states }
cli-click-did-you-mean = { $count ->
   *[other] もしかして: { $possibility }{ $possibilities ->
       *[other] {""}
      }
  }
cli-click-extra-arguments = { $count ->
   *[other] 余分な引数があります（{ $args }）
  }
cli-click-value-count = { $count ->
   *[other] 値を{ $nargs }個指定してください（指定: { $len }個）。
  }
cli-click-needs-value = { $count ->
   *[other] オプション { $name } には値を{ $nargs }個付けてください。
  }
cli-click-choice = { $count ->
   *[other] { $value } は選べません。次から選んでください: { $choice }{ $choices ->
       *[other] {""}
      }
  }
cli-help-cubegames = キューブを使ったテーブルゲームを遊び、局面を調べ、ボットどうしを対戦させます。
cli-help-lang = 言語: en（英語）か ja（日本語）。既定は $CUBEGAMES_LANG、なければロケール（$LC_ALL, $LC_MESSAGES, $LANG）、それもなければ en。
cli-help-play =
    GAME をターミナルで遊びます。相手はボットか、同じキーボードを使う人です。

    GAME には `cubegames games` が示すIDを指定します。表示する文章（入力の案内、ヘルプ、手の説明、指せない理由、結果）はすべて --lang の言語になります。
cli-help-play-players = 席の数。
cli-help-play-seats = このキーボードで遊ぶ席（くり返し指定すると、1台を交代で使うホットシートになります。既定: 席0）。
cli-help-play-bots = ほかの席のボット。席の順に指定し、最後のボットが残りの席をすべて受け持ちます（既定: random）。
cli-help-play-pairs = ゲームの設定。例: -o edition=ja -o variants=bridging,void -o rounds=1
cli-help-play-seed = 配り方のシード値（既定: ランダム）。
cli-help-moves = 保存した局面の合法手を、1行に1つずつ表示します。
cli-help-odds = ゲームの偶然の出来事の正確な確率を、そのゲームのターミナル表示で一覧にします（CUBES: 6個のサイコロを振ったときのすべての出目）。
cli-help-odds-pairs = ゲームの設定。
cli-help-check = 保存した局面で MOVE が指せるかを答えます。指せるなら「合法手です。」（終了コード0）、指せないならその理由（終了コード1）を表示します。
cli-help-rules =
    GAME のルールを表示します。遊び方と、ルールの読み方としてこのプロジェクトが決めたことのすべてです。

    GAME には `cubegames games` が示すIDを指定します。同じ文章がプロジェクトの docs/rules/ja/GAME.md（英語は docs/rules/GAME.md）と、ウェブページの「遊び方」にあります。
cli-help-rules-plain = Markdown をそのまま表示するか、ターミナル向けに整えて表示するか（既定: ターミナルでは整えて、パイプのときはそのまま）。
cli-help-games = ゲームと、それぞれの設定の一覧を表示します（登録されていても読み込めないゲームは、かわりに標準エラーに名前を表示します）。
cli-legal = 合法手です。
cli-cannot-read = { $path } を読めません: { $reason }
cli-os-missing = ファイルがありません
cli-os-denied = 読む権限がありません
cli-os-folder = フォルダーです
cli-os-other = 読み込みに失敗しました
cli-not-text = { $path }: テキストファイルではありません
cli-too-large = { $path }: 大きすぎて読めません（{ $bytes }バイトを超えています）
cli-not-json = { $reason ->
   *[other] { $path }: JSONとして読めません（{ $line }行{ $column }列）
  }
cli-too-deep = { $path }: 局面ファイルではありません（括弧の入れ子が深すぎます）
cli-long-number = { $path }: 局面ファイルではありません（長すぎて読めない数があります）
cli-bad-file = { $reason ->
   *[other] { $path }: 局面ファイルとして正しくありません
  }
cli-bad-field = { $reason ->
   *[other] { $path }: 局面ファイルの「{ $field }」が正しくありません
  }
cli-missing-field = { $reason ->
   *[other] { $path }: 局面ファイルに「{ $field }」がありません
  }
cli-failed = コマンドが失敗しました: { $error }（{ $place }）
cli-games-line = { $game }: 設定 { $options }
cli-games-option = { $name }（{ $label }）
cli-games-none = （なし）
cli-rules-unknown = 「{ $game }」のルールはありません。ゲームは { $games } です
cli-help-replay =
    ゲームの記録（ウェブアプリが保存する cubegames-record ファイル）を、1手ずつ言葉で説明し、最後に結果を表示します。

    記録はエンジンで最初から指し直して確かめます。手の説明は対局画面の手の記録と同じ言葉で、--lang の言語で表示します。既定では観戦者から見たゲームを、--seat を指定するとその席から見たゲームを説明します。
cli-help-replay-seat = この席から見たゲームとして説明する（既定: 観戦者から見たゲーム）。
cli-replay-unfinished = ゲームはまだ終わっていません。
cli-replay-seat-named = { $seat }（{ $name }）
cli-check-unknown-move = このゲームにない手です。合法手の一覧は `cubegames moves` で表示できます。
cli-replay-view-of = このファイルは席{ $seat }から見たゲームの記録です。その席から見たとおりにだけ説明できます
cli-help-compile =
    numba のカーネルをいまコンパイルしておきます。ボットの手もシミュレーションも、コンパイルを待たずにすみます。

    カーネルはそのマシンで初めて使うときにコンパイルされます（全部で1〜3分）。2回目からは numba のキャッシュからすぐに読み込みます。`make play`（ボットの分だけ）と `make test` は、始める前にこれを実行します。
cli-help-compile-parts = この部分だけをコンパイルする（くり返し指定できます。既定: すべて）。
cli-compile-compiling = { $part } のカーネルをコンパイルしています…
cli-compile-ready = { $part }: 準備ができました（{ $seconds }秒）
cli-serve-open = ブラウザーで { $address } を開いてください（Ctrl-C で止まります）
cli-serve-kept = 対局は { $place } に保存されます
