/**
 * Small pages written for the discovery unit tests, shaped like the pages crawlers meet: a news
 * article with menus and link boxes, a category list, a forum board.
 */

const MENU = `<div class="nav"><a href="/">首页</a> <a href="/sports/">体育</a> <a href="/ent/">娱乐</a> <a href="/finance/">财经</a> <a href="/edu/">教育</a></div>`;

const FOOTER = `<div class="footer"><a href="/about.html">关于我们</a> | <a href="/contact.html">联系我们</a> | <a href="/sitemap.html">网站地图</a></div>`;

/** An article: a long body, a related box on its topic, an off-topic box, ads to another site. */
export const ARTICLE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>女排世界杯三比零战胜强敌 主教练称防守还需加强_体育新闻</title></head>
<body>
${MENU}
<div class="article">
<h1>女排世界杯三比零战胜强敌 主教练称防守还需加强</h1>
<p>中国女排在世界杯比赛中以三比零战胜强敌，取得两连胜。主攻手在比赛中发挥出色，全场拿下二十分。</p>
<p>主教练赛后表示，球队的防守还需要加强，下一场比赛将面对卫冕冠军，全队会认真准备。球迷们在现场热情助威，门票早已售罄。</p>
<p>据悉，女排将在三天后进行第三场比赛，对手实力不俗，比赛的胜负将决定小组排名。</p>
</div>
<div class="related"><h3>相关阅读</h3><ul>
<li><a href="/sports/2024/05/101.shtml">女排世界杯首战告捷 主攻手砍下二十分</a></li>
<li><a href="/sports/2024/05/102.shtml">世界杯女排小组赛赛程公布 卫冕冠军同组</a></li>
<li><a href="/sports/2024/05/103.shtml">女排主教练谈防守：还需要加强</a></li>
<li><a href="http://sports.other-news.cn/news/104.html">女排世界杯前瞻：三场比赛定排名</a></li>
</ul></div>
<div class="hot"><h3>热门推荐</h3><ul>
<li><a href="/ent/2024/05/201.shtml">这部电影上映首周票房突破五亿元</a></li>
<li><a href="/finance/2024/05/202.shtml">央行宣布下调存款准备金率</a></li>
<li><a href="/ent/2024/05/203.shtml">著名导演宣布新片开机 多位明星加盟</a></li>
</ul></div>
<div class="ad"><a href="http://ads.example.net/a1">免费领取超值大礼包</a> <a href="http://ads.example.net/a2">最新博彩优惠活动火热开启</a> <a href="http://ads.example.net/a3">点击查看今日特价商品</a></div>
${FOOTER}
</body></html>`;

/** A category list: thirty titles, a pager, the menu. */
export const LIST = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>体育频道_第2页</title></head>
<body>
${MENU}
<div class="list"><ul>
${Array.from({ length: 30 }, (_, i) => `<li><a href="/sports/2024/05/${300 + i}.shtml">体育新闻标题第${i + 1}条 球队主场取胜晋级</a> <span>2024-05-01</span></li>`).join("\n")}
</ul></div>
<div class="pager"><a href="/sports/index_1.shtml">上一页</a> <a href="/sports/index_1.shtml">1</a> <b>2</b> <a href="/sports/index_3.shtml">3</a> <a href="/sports/index_3.shtml">下一页</a></div>
${FOOTER}
</body></html>`;

/** A forum board whose threads are entries of a few links each (title, author, last reply). */
export const BOARD = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>校园篮球版 - 学生论坛</title></head>
<body>
<div id="threads">
${Array.from(
  { length: 12 },
  (_, i) =>
    `<div class="thread"><a class="title" href="/forum.php?mod=viewthread&tid=${500 + i}">周末篮球友谊赛第${i + 1}场报名帖</a> <a class="author" href="/space-uid-${i}.html">同学${i}</a> <a class="last" href="/forum.php?mod=redirect&tid=${500 + i}&goto=lastpost">最后回复</a></div>`,
).join("\n")}
</div>
</body></html>`;
