# Charts of the tilejit-bench run in /work/main/bench/results/cpu-sizes.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh /work/main/bench/results/cpu-sizes.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" /work/main/bench/results/cpu-sizes.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
0.25 104.481
1 90.4569
4 95.8479
4 96.0355
16 54.7705
16 55.955
64 18.0595
256 16.8085
EOD
$t0_1 << EOD
4 3.28746
16 2.98713
64 2.93938
256 2.9589
EOD
$t0_2 << EOD
0.25 0.0639929
1 27.6297
4 1.55544
4 58.3669
16 4.20373
16 46.0882
64 17.2419
256 19.7406
EOD
$t0_3 << EOD
4 3.07986
16 2.96123
64 5.94881
256 5.51681
EOD
$t0_4 << EOD
0.25 0.116578
1 0.11481
4 0.114188
16 0.107848
EOD
$t0_5 << EOD
0.25 0.129768
1 0.201978
4 0.199046
16 0.240022
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
0.25 5.8356
1 6.12957
4 6.00913
4 6.07032
16 5.89612
16 5.82431
64 5.86059
256 5.83537
EOD
$t1_1 << EOD
4 1.73574
16 1.73285
64 1.72508
256 1.6899
EOD
$t1_2 << EOD
0.25 3.89898
1 5.19564
4 5.7381
4 5.72257
16 4.19784
16 4.19701
64 8.32193
256 10.2268
EOD
$t1_3 << EOD
4 1.67332
16 3.36357
64 3.04558
256 3.1934
EOD
$t1_4 << EOD
0.25 0.24136
1 0.236292
4 0.23444
16 0.235421
EOD
$t1_5 << EOD
0.25 0.395276
1 0.307128
4 0.436971
16 0.35615
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
0.25 4.19749
1 7.34495
4 7.31769
4 7.32216
16 7.13467
16 7.07834
64 7.09542
256 7.13621
EOD
$t2_1 << EOD
4 0.558609
16 0.555717
64 0.555809
256 0.555881
EOD
$t2_2 << EOD
0.25 3.92616
1 5.36716
4 6.335
4 6.27294
16 4.81298
16 4.16536
64 7.59493
256 7.985
EOD
$t2_3 << EOD
4 1.058
16 1.01459
64 1.00459
256 0.994965
EOD
$t2_4 << EOD
0.25 0.0342047
1 0.0337422
4 0.0337052
16 0.0340361
EOD
$t2_5 << EOD
0.25 0.0390271
1 0.0608915
4 0.0691239
16 0.0290861
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
0.25 103.064
1 94.8594
4 94.3059
4 95.265
16 20.0289
16 20.7553
64 16.5637
256 19.9592
EOD
$t3_1 << EOD
4 10.831
16 7.85948
64 7.85264
256 8.38881
EOD
$t3_2 << EOD
0.25 19.6366
1 39.6411
4 15.2272
4 69.8829
16 14.8414
16 8.41263
64 16.7298
256 28.2752
EOD
$t3_3 << EOD
4 20.1054
16 7.866
64 14.3123
256 15.2308
EOD
$t3_4 << EOD
0.25 0.927432
1 0.909252
4 0.855197
16 0.854568
EOD
$t3_5 << EOD
0.25 1.29733
1 0.885809
4 1.61387
16 1.53507
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 0.0342988
"cpu/sum: tilejit width-1, 2 threads" 1.98006
"cpu/sum: tilejit cooperative, 1 thread" 0.00111577
"cpu/sum: tilejit cooperative, 2 threads" 2.02786
"cpu/histogram: tilejit width-1, 1 thread" 0.28885
"cpu/histogram: tilejit width-1, 2 threads" 0.291616
"cpu/histogram: tilejit cooperative, 1 thread" 0.0413599
"cpu/histogram: tilejit cooperative, 2 threads" 0.101379
"cpu/compact: tilejit width-1, 1 thread" 0.0763367
"cpu/compact: tilejit width-1, 2 threads" 0.167009
"cpu/compact: tilejit cooperative, 1 thread" 0.00814885
"cpu/compact: tilejit cooperative, 2 threads" 0.00994026
"cpu/copy: tilejit width-1, 1 thread" 0.114849
"cpu/copy: tilejit width-1, 2 threads" 1.32036
"cpu/copy: tilejit cooperative, 1 thread" 0.00899858
"cpu/copy: tilejit cooperative, 2 threads" 0.0660669
"cpu/sum: tilejit width-1, 1 thread" 0.054539
"cpu/sum: tilejit width-1, 2 threads" 0.70443
"cpu/sum: tilejit cooperative, 1 thread" 0.00126922
"cpu/sum: tilejit cooperative, 2 threads" 0.00731015
"cpu/histogram: tilejit width-1, 1 thread" 0.293897
"cpu/histogram: tilejit width-1, 2 threads" 0.801262
"cpu/histogram: tilejit cooperative, 1 thread" 0.0385495
"cpu/histogram: tilejit cooperative, 2 threads" 0.0591128
"cpu/compact: tilejit width-1, 1 thread" 0.0778897
"cpu/compact: tilejit width-1, 2 threads" 0.210802
"cpu/compact: tilejit cooperative, 1 thread" 0.00459393
"cpu/compact: tilejit cooperative, 2 threads" 0.0113452
"cpu/copy: tilejit width-1, 1 thread" 0.392407
"cpu/copy: tilejit width-1, 2 threads" 0.530005
"cpu/copy: tilejit cooperative, 1 thread" 0.00958526
"cpu/copy: tilejit cooperative, 2 threads" 0.0223457
"cpu/sum: tilejit width-1, 1 thread" 0.162761
"cpu/sum: tilejit width-1, 2 threads" 0.345021
"cpu/sum: tilejit cooperative, 1 thread" 0.00118902
"cpu/sum: tilejit cooperative, 2 threads" 0.00341025
"cpu/histogram: tilejit width-1, 1 thread" 0.294353
"cpu/histogram: tilejit width-1, 2 threads" 0.365971
"cpu/histogram: tilejit cooperative, 1 thread" 0.0386208
"cpu/histogram: tilejit cooperative, 2 threads" 0.0763592
"cpu/compact: tilejit width-1, 1 thread" 0.0783335
"cpu/compact: tilejit width-1, 2 threads" 0.132271
"cpu/compact: tilejit cooperative, 1 thread" 0.00460318
"cpu/compact: tilejit cooperative, 2 threads" 0.0110194
"cpu/copy: tilejit width-1, 1 thread" 0.474089
"cpu/copy: tilejit width-1, 2 threads" 0.855495
"cpu/copy: tilejit cooperative, 1 thread" 0.00897704
"cpu/copy: tilejit cooperative, 2 threads" 0.0230939
"cpu/sum: tilejit width-1, 1 thread" 0.176036
"cpu/sum: tilejit width-1, 2 threads" 0.279465
"cpu/sum: tilejit cooperative, 1 thread" 0.0019274
"cpu/sum: tilejit cooperative, 2 threads" 0.00520789
"cpu/histogram: tilejit width-1, 1 thread" 0.289596
"cpu/histogram: tilejit width-1, 2 threads" 0.312257
"cpu/histogram: tilejit cooperative, 1 thread" 0.0404204
"cpu/histogram: tilejit cooperative, 2 threads" 0.0848579
"cpu/compact: tilejit width-1, 1 thread" 0.0778959
"cpu/compact: tilejit width-1, 2 threads" 0.124604
"cpu/compact: tilejit cooperative, 1 thread" 0.00480849
"cpu/compact: tilejit cooperative, 2 threads" 0.00698286
"cpu/copy: tilejit width-1, 1 thread" 0.420297
"cpu/copy: tilejit width-1, 2 threads" 0.538662
"cpu/copy: tilejit cooperative, 1 thread" 0.0411735
"cpu/copy: tilejit cooperative, 2 threads" 0.182472
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
