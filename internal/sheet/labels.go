package sheet

import (
	"strconv"

	"github.com/fieldwatch/fieldwatch/internal/devices"
	"github.com/fieldwatch/fieldwatch/internal/i18n"
)

// The labels of a workbook live here rather than in the i18n catalogue: that
// catalogue holds server messages with placeholders, while these are fixed
// names tied to the devices enums, and keeping them beside those enums lets a
// test check that every value has a name in every language.

// sheetNames is the device list sheet's name. Excel caps sheet names at 31
// characters and forbids []:*?/\ in them.
var sheetNames = devices.Names{ZhCN: "设备列表", ZhTW: "設備列表", EnUS: "Devices"}

// column is one column of the device list.
type column struct {
	names devices.Names
	// width is in Excel character units, enough for typical content; the
	// header widens it when its own text is longer.
	width float64
}

// The device list columns, in sheet order; rowOf fills them in the same order.
var columns = []column{
	{devices.Names{ZhCN: "设备名称", ZhTW: "設備名稱", EnUS: "Name"}, 24},
	{devices.Names{ZhCN: "SN", ZhTW: "SN", EnUS: "SN"}, 20},
	{devices.Names{ZhCN: "设备类型", ZhTW: "設備類型", EnUS: "Type"}, 32},
	{devices.Names{ZhCN: "类别", ZhTW: "類別", EnUS: "Category"}, 12},
	{devices.Names{ZhCN: "状态", ZhTW: "狀態", EnUS: "Status"}, 12},
	{devices.Names{ZhCN: "最后上报时间", ZhTW: "最後上報時間", EnUS: "Last report"}, 20},
	{devices.Names{ZhCN: "电池电压 (V)", ZhTW: "電池電壓 (V)", EnUS: "Battery (V)"}, 12},
	{devices.Names{ZhCN: "信号强度 (dBm)", ZhTW: "訊號強度 (dBm)", EnUS: "Signal (dBm)"}, 12},
	{devices.Names{ZhCN: "位置", ZhTW: "位置", EnUS: "Location"}, 32},
	{devices.Names{ZhCN: "经度", ZhTW: "經度", EnUS: "Longitude"}, 12},
	{devices.Names{ZhCN: "纬度", ZhTW: "緯度", EnUS: "Latitude"}, 12},
	{devices.Names{ZhCN: "海拔 (m)", ZhTW: "海拔 (m)", EnUS: "Altitude (m)"}, 10},
	{devices.Names{ZhCN: "安装时间", ZhTW: "安裝時間", EnUS: "Installed"}, 12},
	{devices.Names{ZhCN: "数据服务到期", ZhTW: "數據服務到期", EnUS: "Data service until"}, 12},
	{devices.Names{ZhCN: "质保到期", ZhTW: "保固到期", EnUS: "Warranty until"}, 12},
	{devices.Names{ZhCN: "标签", ZhTW: "標籤", EnUS: "Tags"}, 30},
}

var statusNames = map[devices.Status]devices.Names{
	devices.StatusOnline:                   {ZhCN: "在线", ZhTW: "在線", EnUS: "Online"},
	devices.StatusOffline:                  {ZhCN: "离线", ZhTW: "離線", EnUS: "Offline"},
	devices.StatusLowpower:                 {ZhCN: "低电量", ZhTW: "低電量", EnUS: "Low power"},
	devices.StatusFault:                    {ZhCN: "故障", ZhTW: "故障", EnUS: "Fault"},
	devices.Status(devices.StateProduce):   {ZhCN: "已生产", ZhTW: "已生產", EnUS: "Produced"},
	devices.Status(devices.StateToDeliver): {ZhCN: "待发货", ZhTW: "待出貨", EnUS: "To be delivered"},
	devices.Status(devices.StateTransit):   {ZhCN: "运输中", ZhTW: "運送中", EnUS: "In transit"},
	devices.Status(devices.StateDeliver):   {ZhCN: "已交付", ZhTW: "已交付", EnUS: "Delivered"},
	devices.Status(devices.StateIdle):      {ZhCN: "闲置", ZhTW: "閒置", EnUS: "Idle"},
	devices.Status(devices.StateRepair):    {ZhCN: "维修中", ZhTW: "維修中", EnUS: "In repair"},
	devices.Status(devices.StateScrap):     {ZhCN: "报废", ZhTW: "報廢", EnUS: "Scrapped"},
}

var categoryNames = map[devices.Category]devices.Names{
	devices.CategoryMeteorology: {ZhCN: "气象", ZhTW: "氣象", EnUS: "Meteorology"},
	devices.CategorySoil:        {ZhCN: "土壤", ZhTW: "土壤", EnUS: "Soil"},
	devices.CategoryDisaster:    {ZhCN: "灾害", ZhTW: "災害", EnUS: "Disaster"},
	devices.CategoryIrrigation:  {ZhCN: "灌溉", ZhTW: "灌溉", EnUS: "Irrigation"},
	devices.CategoryEcology:     {ZhCN: "生态", ZhTW: "生態", EnUS: "Ecology"},
}

// StatusName returns the name of a device status in lang. A status without a
// name comes back as its wire value, so a missing label shows rather than
// leaving an empty cell.
func StatusName(s devices.Status, lang i18n.Lang) string {
	if n, ok := statusNames[s]; ok {
		return n.In(lang)
	}
	return string(s)
}

// CategoryName returns the name of a device category in lang; like
// StatusName, an unnamed category comes back as its wire value.
func CategoryName(c devices.Category, lang i18n.Lang) string {
	if n, ok := categoryNames[c]; ok {
		return n.In(lang)
	}
	return string(c)
}

// The data export's sheet, first column and statistics.
var (
	dataSheetNames = devices.Names{ZhCN: "数据", ZhTW: "數據", EnUS: "Data"}
	timeNames      = devices.Names{ZhCN: "时间", ZhTW: "時間", EnUS: "Time"}
	dateNames      = devices.Names{ZhCN: "日期", ZhTW: "日期", EnUS: "Date"}
)

var aggNames = map[devices.Agg]devices.Names{
	devices.AggAvg:  {ZhCN: "平均值", ZhTW: "平均值", EnUS: "average"},
	devices.AggMin:  {ZhCN: "最小值", ZhTW: "最小值", EnUS: "minimum"},
	devices.AggMax:  {ZhCN: "最大值", ZhTW: "最大值", EnUS: "maximum"},
	devices.AggSum:  {ZhCN: "累计值", ZhTW: "累計值", EnUS: "total"},
	devices.AggLast: {ZhCN: "最后值", ZhTW: "最後值", EnUS: "last"},
}

// AggName returns the name of a daily statistic in lang; like StatusName,
// an unnamed one comes back as its wire value.
func AggName(a devices.Agg, lang i18n.Lang) string {
	if n, ok := aggNames[a]; ok {
		return n.In(lang)
	}
	return string(a)
}

// nodeName is a node's depth: "10 cm", "10厘米", "10公分".
func nodeName(depth int, lang i18n.Lang) string {
	unit := devices.Names{ZhCN: "厘米", ZhTW: "公分", EnUS: " cm"}.In(lang)
	return strconv.Itoa(depth) + unit
}
