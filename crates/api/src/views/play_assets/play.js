  // The hosted Opinion app. Runs after the shared prelude (`say`, `api`, `open`) with
  // `I18N` (one catalog per language) in scope. Everything is built with DOM calls and
  // `textContent`, never as markup; amounts arrive as integer strings of minor units.
  var LANG = 'en', LOCALE = 'en-US', CURRENCY = 'USD', DIGITS = 2;
  var SVG = 'http://www.w3.org/2000/svg';
  var view = document.getElementById('view');
  var board = [];

  var t = function (key, vars) {
    var text = (I18N[LANG] && I18N[LANG][key]) || I18N.en[key] || key;
    Object.keys(vars || {}).forEach(function (name) { text = text.split('{' + name + '}').join(vars[name]); });
    return text;
  };
  var has = function (key) { return Object.prototype.hasOwnProperty.call(I18N.en, key); };
  // A refusal in the player's language where the catalog knows its code, else as sent.
  var trouble = function (error) { return error.code && has('problem.' + error.code) ? t('problem.' + error.code) : error.message; };
  var h = function (tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (name) {
      var value = props[name];
      if (name === 'text') { node.textContent = value; }
      else if (name === 'class') { node.className = value; }
      else if (name.slice(0, 2) === 'on') { node.addEventListener(name.slice(2), value); }
      else { node.setAttribute(name, value); }
    });
    (children || []).forEach(function (child) {
      if (child !== null && child !== undefined) { node.append(child); }
    });
    return node;
  };
  var svg = function (tag, attributes) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attributes).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    return node;
  };

  // The platform's digits for the operator's currency (IDR in whole rupiah), else ISO 4217's.
  var exponent = function (currency) {
    return currency === CURRENCY ? DIGITS : new Intl.NumberFormat('en', { style: 'currency', currency: currency }).resolvedOptions().maximumFractionDigits;
  };
  var money = function (minor, currency) {
    var code = currency || CURRENCY, digits = exponent(code);
    return new Intl.NumberFormat(LOCALE, { style: 'currency', currency: code, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(Number(minor) / Math.pow(10, digits));
  };
  var signedMoney = function (minor) { return (Number(minor) > 0 ? '+' : '') + money(minor); };
  var units = function (minor) {
    var digits = exponent(CURRENCY);
    return new Intl.NumberFormat(LOCALE, { maximumFractionDigits: digits }).format(Number(minor) / Math.pow(10, digits));
  };
  var percent = function (ppm) {
    var value = ppm / 10000;
    return new Intl.NumberFormat(LOCALE, { maximumFractionDigits: value > 0 && value < 1 ? 1 : 0 }).format(value) + '%';
  };
  var points = function (ppm) {
    var value = ppm / 10000;
    var sign = value > 0 ? '+' : value < 0 ? '\u2212' : '';
    return sign + new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(Math.abs(value)) + ' ' + t('pts');
  };
  var when = function (iso) {
    return new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso)) + ' UTC';
  };
  var tone = function (number) { return number > 0 ? 'up' : number < 0 ? 'down' : 'flat'; };

  var dress = function () {
    var locale = sessionStorage.getItem('opinion.locale');
    return api('GET', '/api/player/branding' + (locale ? '?locale=' + encodeURIComponent(locale) : '')).then(function (brand) {
      LANG = brand.language;
      LOCALE = LANG === 'id' ? 'id-ID' : 'en-US';
      CURRENCY = brand.currency;
      DIGITS = brand.currencyDigits;
      document.documentElement.lang = LANG;
      var root = document.documentElement.style;
      root.setProperty('--primary', brand.primaryColor);
      root.setProperty('--on-primary', brand.primaryText);
      root.setProperty('--accent', brand.accentColor);
      root.setProperty('--on-accent', brand.accentText);
      document.getElementById('brand-name').textContent = brand.name;
      document.title = brand.name;
      document.querySelectorAll('[data-i18n]').forEach(function (node) {
        var key = node.getAttribute('data-i18n');
        if (node.hasAttribute('aria-label')) { node.setAttribute('aria-label', t(key)); } else { node.textContent = t(key); }
      });
    });
  };

  var refreshBalance = function () {
    var shown = document.getElementById('balance');
    return api('GET', '/api/player/balance').then(function (read) {
      shown.textContent = read.state === 'known' ? money(read.balance, read.currency) : t('balance.unknown');
    }).catch(function () { shown.textContent = t('balance.unknown'); });
  };

  var reason = function (code) {
    return has('reason.' + code) ? t('reason.' + code) : t('reason.other') + ' (' + code + ')';
  };
  // What an order came to, as the class and the sentence of its message.
  var outcomeOf = function (trade) {
    var facts = { shares: units(trade.shares), outcome: t('outcome.' + trade.outcome), amount: money(trade.amount) };
    if (trade.status === 'executed') { return ['good', t(trade.side === 'buy' ? 'done.buy' : 'done.sell', facts)]; }
    if (trade.status === 'failed') { return ['bad', t('refused', { reason: reason(trade.failureReason) })]; }
    if (trade.status === 'manual_review') { return ['review', t('review')]; }
    return ['review', t('pending')];
  };
  var show = function (node, outcome) {
    node.className = 'outcome ' + outcome[0];
    node.textContent = outcome[1];
  };
  var place = function (body) {
    body.clientOrderId = crypto.randomUUID();
    return api('POST', '/api/player/orders', body);
  };

  var change = function (ppm) { return h('span', { class: tone(ppm), text: points(ppm) }); };
  var card = function (market) {
    return h('li', {}, [h('a', { class: 'card', href: '#market/' + market.id }, [
      h('span', { class: 'question', text: market.question }),
      h('span', { class: 'odds' }, [h('strong', { text: percent(market.yesPricePpm) }), ' ' + t('chance') + ' ', change(market.change24hPpm)]),
      h('span', { class: 'meta', text: t('vol') + ' ' + money(market.volume24h) + ' \u00b7 ' + t('closes') + ' ' + when(market.closeAt) })
    ])]);
  };
  var ORDERS = {
    volume: function (a, b) { return Number(b.volume24h) - Number(a.volume24h); },
    closing: function (a, b) { return Date.parse(a.closeAt) - Date.parse(b.closeAt); },
    newest: function (a, b) { return Date.parse(b.createdAt) - Date.parse(a.createdAt); }
  };
  var showMarkets = function () {
    return api('GET', '/api/player/board').then(function (read) {
      board = read.data;
      var search = h('input', { id: 'search', type: 'search', autocomplete: 'off', spellcheck: 'false' });
      var sort = h('select', { id: 'sort' }, ['trending', 'volume', 'closing', 'newest'].map(function (key) {
        return h('option', { value: key, text: t('sort.' + key) });
      }));
      var list = h('ul', { class: 'cards', id: 'market-list' });
      var draw = function () {
        var wanted = search.value.trim().toLowerCase();
        var shown = board.filter(function (market) { return market.question.toLowerCase().indexOf(wanted) >= 0; });
        if (ORDERS[sort.value]) { shown = shown.slice().sort(ORDERS[sort.value]); }
        list.replaceChildren.apply(list, shown.length ? shown.map(card) : [h('li', { class: 'empty', text: t('markets.empty') })]);
      };
      search.addEventListener('input', draw);
      sort.addEventListener('change', draw);
      view.replaceChildren(h('div', { class: 'toolbar' }, [
        h('label', { class: 'field' }, [h('span', { text: t('search') }), search]),
        h('label', { class: 'field' }, [h('span', { text: t('sort') }), sort])
      ]), list);
      draw();
    });
  };

  // The price history as a step line: the price holds from one trade to the next.
  var chart = function (history) {
    var width = 320, height = 140, pad = 6;
    var last = history[history.length - 1];
    var first = Date.parse(history[0].at), span = Math.max(Date.parse(last.at) - first, 1);
    var x = function (at) { return (pad + (Date.parse(at) - first) / span * (width - 2 * pad - 28)).toFixed(1); };
    var y = function (ppm) { return (pad + (1 - ppm / 1e6) * (height - 2 * pad)).toFixed(1); };
    var drawing = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, class: 'chart', role: 'img', 'aria-label': t('chart', { price: percent(last.yesPricePpm) }) });
    [250000, 500000, 750000].forEach(function (ppm) {
      drawing.appendChild(svg('line', { x1: pad, x2: width - pad - 28, y1: y(ppm), y2: y(ppm), class: 'grid' }));
      var label = svg('text', { x: width - pad, y: y(ppm), class: 'axis', 'text-anchor': 'end', 'dominant-baseline': 'middle' });
      label.textContent = percent(ppm);
      drawing.appendChild(label);
    });
    var line = 'M' + x(history[0].at) + ' ' + y(history[0].yesPricePpm);
    history.slice(1).forEach(function (point) { line += ' H' + x(point.at) + ' V' + y(point.yesPricePpm); });
    drawing.appendChild(svg('path', { d: line + ' V' + (height - pad) + ' H' + pad + ' Z', class: 'area' }));
    drawing.appendChild(svg('path', { d: line, class: 'line' }));
    return h('figure', { class: 'chart-box' }, [drawing, h('figcaption', { text: t('chart.caption') })]);
  };

  var facts = function (pairs) {
    var list = h('dl', { class: 'facts' });
    pairs.forEach(function (pair) { list.append(h('dt', { text: pair[0] }), h('dd', { text: pair[1] })); });
    return list;
  };

  var ticket = function (market) {
    var outcome = 'yes', quote = null, timer = null, asked = 0;
    var side = function (name, ppm) {
      return h('button', { type: 'button', class: 'side ' + name, 'aria-pressed': String(name === outcome), onclick: function () { pick(name); } },
        [t('outcome.' + name) + ' ' + percent(ppm)]);
    };
    var yes = side('yes', market.yesPricePpm), no = side('no', market.noPricePpm);
    var amount = h('input', { id: 'amount', type: 'text', inputmode: 'decimal', autocomplete: 'off', placeholder: '0' });
    var priced = h('div', { id: 'quote', 'aria-live': 'polite' });
    var submit = h('button', { type: 'submit', class: 'primary', id: 'buy', disabled: '', text: t('ticket.buy') });
    var result = h('p', { id: 'outcome', class: 'outcome', role: 'status' });
    var minor = function () {
      var value = Number(amount.value.replace(',', '.'));
      return isFinite(value) && value > 0 ? Math.round(value * Math.pow(10, exponent(CURRENCY))) : 0;
    };
    var requote = function () {
      clearTimeout(timer);
      quote = null;
      submit.disabled = true;
      var value = minor(), mine = ++asked;
      if (!value) { priced.replaceChildren(); return; }
      priced.replaceChildren(h('p', { class: 'muted', text: t('quoting') }));
      timer = setTimeout(function () {
        var body = { marketId: market.id, side: 'buy', outcome: outcome, kind: 'amount', value: String(value) };
        api('POST', '/api/player/quotes', body).then(function (read) {
          if (mine !== asked) { return; }
          quote = read;
          submit.disabled = false;
          priced.replaceChildren(facts([
            [t('quote.shares'), units(read.shares)],
            [t('quote.average'), percent(read.averagePricePpm)],
            [t('quote.payout'), money(read.payoutIfRight)],
            [t('quote.fee'), money(read.fee)],
            [t('quote.limit', { tolerance: percent(read.toleranceBps * 100) }), money(read.limit)]
          ]));
        }).catch(function (error) {
          if (mine === asked) { priced.replaceChildren(h('p', { class: 'muted', text: trouble(error) })); }
        });
      }, 300);
    };
    var pick = function (name) {
      outcome = name;
      yes.setAttribute('aria-pressed', String(name === 'yes'));
      no.setAttribute('aria-pressed', String(name === 'no'));
      requote();
    };
    amount.addEventListener('input', requote);
    var form = h('form', { class: 'ticket', 'aria-labelledby': 'ticket-title', novalidate: '' }, [
      h('h3', { id: 'ticket-title', text: t('ticket') }),
      h('div', { class: 'sides', role: 'group', 'aria-label': t('ticket.outcome') }, [yes, no]),
      h('label', { for: 'amount', text: t('ticket.amount', { currency: CURRENCY }) }), amount, priced, submit, result
    ]);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (!quote) { return; }
      var order = { marketId: market.id, side: 'buy', outcome: quote.outcome, kind: 'shares', value: quote.shares, limit: quote.limit };
      submit.disabled = true;
      amount.disabled = true;
      submit.setAttribute('aria-busy', 'true');
      submit.textContent = t('placing');
      show(result, ['busy', t('placing')]);
      place(order).then(function (trade) {
        return refreshBalance().then(function () { return showMarket(market.id); }).then(function () {
          show(document.getElementById('outcome'), outcomeOf(trade));
        });
      }).catch(function (error) {
        submit.removeAttribute('aria-busy');
        submit.textContent = t('ticket.buy');
        amount.disabled = false;
        show(result, ['bad', t('error') + ' ' + trouble(error)]);
      });
    });
    return form;
  };

  var showMarket = function (id) {
    return api('GET', '/api/player/markets/' + encodeURIComponent(id)).then(function (page) {
      var market = page.market;
      var about = [[t('closes'), when(market.closeAt)], [t('status'), t('status.' + market.status)]];
      if (market.resolution) { about.push([t('resolution'), t('outcome.' + market.resolution)]); }
      view.replaceChildren(
        h('a', { class: 'back', href: '#markets', text: '\u2190 ' + t('back') }),
        h('h2', { class: 'title', text: market.question }),
        h('p', { class: 'odds big' }, [h('strong', { text: percent(market.yesPricePpm) }), ' ' + t('chance')]),
        chart(page.history),
        facts(about),
        market.status === 'open' ? ticket(market) : null,
        h('h3', { text: t('rules') }),
        h('p', { class: 'rules', text: market.rules })
      );
    });
  };

  var sellButton = function (position, outcome, shares) {
    var quote = null;
    var label = t('sell', { outcome: t('outcome.' + outcome) });
    var button = h('button', { type: 'button', class: 'secondary', text: label });
    button.addEventListener('click', function () {
      var note = button.parentNode.nextSibling;
      button.disabled = true;
      if (!quote) {
        api('POST', '/api/player/quotes', { marketId: position.marketId, side: 'sell', outcome: outcome, kind: 'shares', value: shares }).then(function (read) {
          quote = read;
          button.disabled = false;
          button.textContent = t('confirm.sell', { amount: money(read.amount) });
          note.textContent = t('quote.minimum', { tolerance: percent(read.toleranceBps * 100) }) + ': ' + money(read.limit) + ' \u00b7 ' + t('quote.fee') + ': ' + money(read.fee);
        }).catch(function (error) { button.disabled = false; note.textContent = trouble(error); });
        return;
      }
      button.setAttribute('aria-busy', 'true');
      button.textContent = t('placing');
      show(note, ['busy', t('placing')]);
      place({ marketId: position.marketId, side: 'sell', outcome: outcome, kind: 'shares', value: shares, limit: quote.limit }).then(function (trade) {
        return refreshBalance().then(showPortfolio).then(function () { show(status, outcomeOf(trade)); });
      }).catch(function (error) {
        quote = null;
        button.disabled = false;
        button.removeAttribute('aria-busy');
        button.textContent = label;
        show(note, ['bad', t('error') + ' ' + trouble(error)]);
      });
    });
    return button;
  };
  var holdings = function (position) {
    return [['yes', position.yesShares], ['no', position.noShares]].filter(function (held) { return held[1] !== '0'; }).map(function (held) {
      return t('holding', { shares: units(held[1]), outcome: t('outcome.' + held[0]) });
    }).join(' \u00b7 ');
  };
  var pnlOf = function (position) { return Number(position.realizedPnl) + Number(position.unrealizedPnl); };
  var openCard = function (position) {
    var actions = h('div', { class: 'actions' });
    [['yes', position.yesShares], ['no', position.noShares]].forEach(function (held) {
      if (held[1] !== '0' && position.marketStatus === 'open') { actions.append(sellButton(position, held[0], held[1])); }
    });
    return h('li', { class: 'card' }, [
      h('a', { class: 'question', href: '#market/' + position.marketId, text: position.question }),
      h('span', { class: 'meta', text: holdings(position) }),
      h('span', { class: 'meta' }, [t('portfolio.value') + ' ' + money(position.markValue) + ' \u00b7 ' + t('portfolio.pnl') + ' ',
        h('span', { class: tone(pnlOf(position)), text: signedMoney(pnlOf(position)) })]),
      actions,
      h('p', { class: 'outcome', role: 'status' })
    ]);
  };
  var resolvedCard = function (position) {
    return h('li', { class: 'card' }, [
      h('a', { class: 'question', href: '#market/' + position.marketId, text: position.question }),
      h('span', { class: 'meta', text: t('resolution') + ': ' + t('outcome.' + position.resolution) + ' \u00b7 ' + holdings(position) }),
      h('span', { class: 'meta' }, [t('payout') + ' ' + money(position.markValue) + ' \u00b7 ',
        h('span', { class: 'badge ' + (position.redeemedAt ? 'executed' : 'pending'),
          text: position.redeemedAt ? t('payout.paid', { at: when(position.redeemedAt) }) : t('payout.pending') })])
    ]);
  };
  var showPortfolio = function () {
    return api('GET', '/api/player/positions').then(function (read) {
      var positions = read.positions || [];
      var open = positions.filter(function (p) { return p.marketStatus !== 'resolved'; });
      var resolved = positions.filter(function (p) { return p.marketStatus === 'resolved'; });
      var total = Number(read.totals.realizedPnl) + Number(read.totals.unrealizedPnl);
      view.replaceChildren(
        h('dl', { class: 'facts totals' }, [
          h('dt', { text: t('portfolio.value') }), h('dd', { text: money(read.totals.markValue) }),
          h('dt', { text: t('portfolio.pnl') }), h('dd', { class: tone(total), text: signedMoney(total) })
        ]),
        h('h2', { text: t('portfolio.open') }),
        open.length ? h('ul', { class: 'cards' }, open.map(openCard)) : h('p', { class: 'empty', text: t('portfolio.empty') }),
        h('h2', { text: t('portfolio.resolved') }),
        resolved.length ? h('ul', { class: 'cards' }, resolved.map(resolvedCard)) : h('p', { class: 'empty', text: t('portfolio.none_resolved') })
      );
    });
  };

  var showHistory = function () {
    return Promise.all([api('GET', '/api/player/trades?limit=100'), api('GET', '/api/player/positions'), api('GET', '/api/player/board')]).then(function (read) {
      var names = {};
      read[2].data.forEach(function (market) { names[market.id] = market.question; });
      (read[1].positions || []).forEach(function (position) { names[position.marketId] = position.question; });
      var trades = read[0].data;
      view.replaceChildren(trades.length ? h('ul', { class: 'cards', id: 'history' }, trades.map(function (trade) {
        var label = t('trade.' + trade.status) + (trade.failureReason ? ': ' + reason(trade.failureReason) : '');
        return h('li', { class: 'card' }, [
          h('span', { class: 'question', text: names[trade.marketId] || trade.marketId }),
          h('span', { class: 'meta', text: t('side.' + trade.side) + ' ' + t('holding', { shares: units(trade.shares), outcome: t('outcome.' + trade.outcome) }) +
            ' \u00b7 ' + money(trade.amount) + ' \u00b7 ' + when(trade.createdAt) }),
          h('span', { class: 'badge ' + trade.status, text: label })
        ]);
      })) : h('p', { class: 'empty', text: t('history.empty') }));
    });
  };

  var PAGES_OF_TABS = { markets: showMarkets, portfolio: showPortfolio, history: showHistory };
  var route = function () {
    var parts = location.hash.replace(/^#/, '').split('/');
    var tab = parts[0] === 'market' ? 'markets' : (PAGES_OF_TABS[parts[0]] ? parts[0] : 'markets');
    document.querySelectorAll('nav.tabs a').forEach(function (link) {
      if (link.getAttribute('data-tab') === tab) { link.setAttribute('aria-current', 'page'); } else { link.removeAttribute('aria-current'); }
    });
    var shown = parts[0] === 'market' && parts[1] ? showMarket(parts[1]) : PAGES_OF_TABS[tab]();
    return shown.then(function () { view.focus({ preventScroll: true }); }).catch(function (error) { show(status, ['bad', t('error') + ' ' + trouble(error)]); });
  };

  open(OPINION).then(function (mine) {
    if (!mine) { return; }
    return dress().then(function () {
      say('');
      window.addEventListener('hashchange', function () { say(''); route(); });
      return Promise.all([refreshBalance(), route()]);
    });
  }).catch(function (error) { say(trouble(error)); });
